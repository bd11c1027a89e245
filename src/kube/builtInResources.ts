import type { ApiResource } from '../shared/k8s.ts';

// The core group's listable kinds, as every kube-apiserver serves them at v1 (v1.28's /api/v1,
// subresources and kinds without list and watch left out). A name that is one of these kinds'
// plural or singular resolves to it without discovery: by kubectl's rules (resolve.ts) such a name
// matches in the first tier, where the core group ranks first, so discovery could only give the
// same answer — or none, when the server does not serve the kind, which the caller must then ask
// discovery about. Short names and kinds are left to discovery: a CRD's plural may claim them.

const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/** plural, singular, kind, namespaced, short names */
const CORE_V1: [string, string, string, boolean, string[]][] = [
  ['configmaps', 'configmap', 'ConfigMap', true, ['cm']],
  ['endpoints', 'endpoints', 'Endpoints', true, ['ep']],
  ['events', 'event', 'Event', true, ['ev']],
  ['limitranges', 'limitrange', 'LimitRange', true, ['limits']],
  ['namespaces', 'namespace', 'Namespace', false, ['ns']],
  ['nodes', 'node', 'Node', false, ['no']],
  ['persistentvolumeclaims', 'persistentvolumeclaim', 'PersistentVolumeClaim', true, ['pvc']],
  ['persistentvolumes', 'persistentvolume', 'PersistentVolume', false, ['pv']],
  ['pods', 'pod', 'Pod', true, ['po']],
  ['podtemplates', 'podtemplate', 'PodTemplate', true, []],
  ['replicationcontrollers', 'replicationcontroller', 'ReplicationController', true, ['rc']],
  ['resourcequotas', 'resourcequota', 'ResourceQuota', true, ['quota']],
  ['secrets', 'secret', 'Secret', true, []],
  ['serviceaccounts', 'serviceaccount', 'ServiceAccount', true, ['sa']],
  ['services', 'service', 'Service', true, ['svc']],
];

/**
 * The core kind `name` (plural or singular, any case) names, as discovery of a server that serves
 * it would resolve it; undefined for any other name.
 */
export function builtInResource(name: string): ApiResource | undefined {
  const lower = name.trim().toLowerCase();
  for (const [resource, singularName, kind, namespaced, shortNames] of CORE_V1) {
    if (lower !== resource && lower !== singularName) continue;
    // Namespaces are deleted one by one (kube-apiserver serves no deletecollection for them).
    const verbs = resource === 'namespaces' ? ALL_VERBS.filter((v) => v !== 'deletecollection') : [...ALL_VERBS];
    // A fresh copy: callers may keep or change it.
    return { group: '', version: 'v1', resource, kind, namespaced, shortNames: [...shortNames], singularName, verbs };
  }
  return undefined;
}
