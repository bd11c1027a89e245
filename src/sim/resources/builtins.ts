import { createHash } from 'node:crypto';
import type { NameRule, ResourceInfo, ScaleMapping, SubresourceInfo } from './types.ts';

// The built-in kinds the simulated cluster serves, with the discovery data a v1.28 kube-apiserver
// reports for them (/work/shared/reference/discovery). Only kinds the store gives real behaviour to
// are listed, and only the subresources served (status, scale, pods/binding and /eviction,
// serviceaccounts/token, CSR approval; not exec or logs).
// The reviews (SelfSubjectAccessReview…) are virtual: create-only, answered without storage.

export const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const STATUS_VERBS = ['get', 'patch', 'update'];

/** base64(sha256("group/version/kind")[:8]), the way kube-apiserver derives storageVersionHash. */
export function storageVersionHash(group: string, version: string, kind: string): string {
  return createHash('sha256').update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString('base64');
}

const RBAC = 'rbac.authorization.k8s.io';
const ADMISSION = 'admissionregistration.k8s.io';

const REPLICAS_SCALE: ScaleMapping = { specReplicasPath: 'spec.replicas', statusReplicasPath: 'status.replicas', labelSelectorPath: 'spec.selector' };

interface Spec {
  group: string;
  version: string;
  resource: string;
  kind: string;
  namespaced?: boolean;
  shortNames?: string[];
  categories?: string[];
  status?: boolean;
  scale?: boolean;
  verbs?: string[];
  nameRule?: NameRule;
  /** When the server's hash is not derived from this group/version/kind (it was first stored in another). */
  storageVersionHash?: string;
  /** Create-only and never stored: discovery shows verbs [create] and no storageVersionHash. */
  virtual?: true;
  /** Subresources besides status and scale (pods/eviction, serviceaccounts/token…). */
  more?: SubresourceInfo[];
}

const CREATE_ONLY = ['create'];

function builtin(spec: Spec): ResourceInfo {
  const subresources: SubresourceInfo[] = [];
  if (spec.scale) subresources.push({ name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: STATUS_VERBS });
  if (spec.status) subresources.push({ name: 'status', kind: spec.kind, verbs: STATUS_VERBS });
  subresources.push(...(spec.more ?? []));
  subresources.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const info: ResourceInfo = {
    group: spec.group,
    version: spec.version,
    resource: spec.resource,
    kind: spec.kind,
    namespaced: spec.namespaced ?? true,
    shortNames: spec.shortNames ?? [],
    singularName: spec.kind.toLowerCase(),
    verbs: spec.verbs ?? (spec.virtual ? ['create'] : ALL_VERBS),
    categories: spec.categories ?? [],
    subresources,
    servedVersions: [spec.version],
    storageVersion: spec.version,
    nameRule: spec.nameRule ?? 'subdomain',
    source: 'builtin',
  };
  if (spec.virtual) info.virtual = true;
  else info.storageVersionHash = spec.storageVersionHash ?? storageVersionHash(spec.group, spec.version, spec.kind);
  if (spec.scale) info.scale = REPLICAS_SCALE;
  return info;
}

export function builtinResources(): ResourceInfo[] {
  return [
    builtin({ group: '', version: 'v1', resource: 'namespaces', kind: 'Namespace', namespaced: false, shortNames: ['ns'], status: true, nameRule: 'label', verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] }),
    // The older form of pods/binding: create-only, nothing of its own stored.
    builtin({ group: '', version: 'v1', resource: 'bindings', kind: 'Binding', virtual: true }),
    builtin({ group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', shortNames: ['cm'] }),
    builtin({ group: '', version: 'v1', resource: 'secrets', kind: 'Secret' }),
    builtin({
      group: '', version: 'v1', resource: 'pods', kind: 'Pod', shortNames: ['po'], categories: ['all'], status: true,
      more: [
        { name: 'binding', kind: 'Binding', verbs: CREATE_ONLY },
        { name: 'eviction', kind: 'Eviction', group: 'policy', version: 'v1', verbs: CREATE_ONLY },
      ],
    }),
    builtin({ group: '', version: 'v1', resource: 'services', kind: 'Service', shortNames: ['svc'], categories: ['all'], status: true, nameRule: 'dns1035' }),
    builtin({ group: '', version: 'v1', resource: 'endpoints', kind: 'Endpoints', shortNames: ['ep'] }),
    builtin({ group: '', version: 'v1', resource: 'events', kind: 'Event', shortNames: ['ev'] }),
    builtin({
      group: '', version: 'v1', resource: 'serviceaccounts', kind: 'ServiceAccount', shortNames: ['sa'],
      more: [{ name: 'token', kind: 'TokenRequest', group: 'authentication.k8s.io', version: 'v1', verbs: CREATE_ONLY }],
    }),
    builtin({ group: '', version: 'v1', resource: 'nodes', kind: 'Node', namespaced: false, shortNames: ['no'], status: true }),
    builtin({ group: '', version: 'v1', resource: 'persistentvolumeclaims', kind: 'PersistentVolumeClaim', shortNames: ['pvc'], status: true }),
    builtin({ group: '', version: 'v1', resource: 'persistentvolumes', kind: 'PersistentVolume', namespaced: false, shortNames: ['pv'], status: true }),
    builtin({ group: '', version: 'v1', resource: 'resourcequotas', kind: 'ResourceQuota', shortNames: ['quota'], status: true }),
    builtin({ group: '', version: 'v1', resource: 'limitranges', kind: 'LimitRange', shortNames: ['limits'] }),
    builtin({ group: '', version: 'v1', resource: 'podtemplates', kind: 'PodTemplate' }),
    builtin({ group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', shortNames: ['deploy'], categories: ['all'], status: true, scale: true }),
    builtin({ group: 'apps', version: 'v1', resource: 'replicasets', kind: 'ReplicaSet', shortNames: ['rs'], categories: ['all'], status: true, scale: true }),
    builtin({ group: 'apps', version: 'v1', resource: 'statefulsets', kind: 'StatefulSet', shortNames: ['sts'], categories: ['all'], status: true, scale: true }),
    builtin({ group: 'apps', version: 'v1', resource: 'daemonsets', kind: 'DaemonSet', shortNames: ['ds'], categories: ['all'], status: true }),
    builtin({ group: 'apps', version: 'v1', resource: 'controllerrevisions', kind: 'ControllerRevision' }),
    // The same storage as core v1 Events, under other field names (src/sim/server/eventsV1Handler.ts).
    builtin({ group: 'events.k8s.io', version: 'v1', resource: 'events', kind: 'Event', shortNames: ['ev'], storageVersionHash: storageVersionHash('', 'v1', 'Event') }),
    builtin({ group: 'authentication.k8s.io', version: 'v1', resource: 'selfsubjectreviews', kind: 'SelfSubjectReview', namespaced: false, virtual: true }),
    builtin({ group: 'authorization.k8s.io', version: 'v1', resource: 'selfsubjectaccessreviews', kind: 'SelfSubjectAccessReview', namespaced: false, virtual: true }),
    builtin({ group: 'authorization.k8s.io', version: 'v1', resource: 'selfsubjectrulesreviews', kind: 'SelfSubjectRulesReview', namespaced: false, virtual: true }),
    // v1.28 stores HPAs as autoscaling/v2; autoscaling/v1 (a lossy view of it) is not served here.
    builtin({ group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', shortNames: ['hpa'], categories: ['all'], status: true }),
    builtin({ group: 'batch', version: 'v1', resource: 'jobs', kind: 'Job', categories: ['all'], status: true }),
    builtin({ group: 'batch', version: 'v1', resource: 'cronjobs', kind: 'CronJob', shortNames: ['cj'], categories: ['all'], status: true }),
    builtin({
      group: 'certificates.k8s.io', version: 'v1', resource: 'certificatesigningrequests', kind: 'CertificateSigningRequest', namespaced: false, shortNames: ['csr'], status: true,
      more: [{ name: 'approval', kind: 'CertificateSigningRequest', verbs: STATUS_VERBS }],
    }),
    builtin({ group: 'networking.k8s.io', version: 'v1', resource: 'ingresses', kind: 'Ingress', shortNames: ['ing'], status: true }),
    // NetworkPolicy's status (alpha) was removed before v1.28: no subresource.
    builtin({ group: 'networking.k8s.io', version: 'v1', resource: 'networkpolicies', kind: 'NetworkPolicy', shortNames: ['netpol'] }),
    builtin({ group: 'networking.k8s.io', version: 'v1', resource: 'ingressclasses', kind: 'IngressClass', namespaced: false }),
    builtin({ group: 'policy', version: 'v1', resource: 'poddisruptionbudgets', kind: 'PodDisruptionBudget', shortNames: ['pdb'], status: true }),
    // RBAC names are path segments (`system:controller:foo`), and RBAC kinds have no status.
    builtin({ group: RBAC, version: 'v1', resource: 'roles', kind: 'Role', nameRule: 'pathSegment' }),
    builtin({ group: RBAC, version: 'v1', resource: 'rolebindings', kind: 'RoleBinding', nameRule: 'pathSegment' }),
    builtin({ group: RBAC, version: 'v1', resource: 'clusterroles', kind: 'ClusterRole', namespaced: false, nameRule: 'pathSegment' }),
    builtin({ group: RBAC, version: 'v1', resource: 'clusterrolebindings', kind: 'ClusterRoleBinding', namespaced: false, nameRule: 'pathSegment' }),
    // Groups from here on come in the order a v1.28 server lists them in /apis (CRDs last here).
    builtin({ group: 'storage.k8s.io', version: 'v1', resource: 'storageclasses', kind: 'StorageClass', namespaced: false, shortNames: ['sc'] }),
    // Stored only: the sim never calls the webhooks these configure.
    builtin({ group: ADMISSION, version: 'v1', resource: 'validatingwebhookconfigurations', kind: 'ValidatingWebhookConfiguration', namespaced: false, categories: ['api-extensions'] }),
    builtin({ group: ADMISSION, version: 'v1', resource: 'mutatingwebhookconfigurations', kind: 'MutatingWebhookConfiguration', namespaced: false, categories: ['api-extensions'] }),
    builtin({ group: 'scheduling.k8s.io', version: 'v1', resource: 'priorityclasses', kind: 'PriorityClass', namespaced: false, shortNames: ['pc'] }),
    builtin({ group: 'coordination.k8s.io', version: 'v1', resource: 'leases', kind: 'Lease' }),
    builtin({ group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices', kind: 'EndpointSlice' }),
    builtin({ group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions', kind: 'CustomResourceDefinition', namespaced: false, shortNames: ['crd', 'crds'], categories: ['api-extensions'], status: true, storageVersionHash: 'jfWCUB31mvA=' }),
  ];
}
