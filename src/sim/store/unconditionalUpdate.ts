import { invalid } from '../../shared/apiErrors.ts';
import type { KubeObject } from '../../shared/k8s.ts';
import type { ResourceInfo } from '../vocabulary/resourceInfo.ts';

// An update (PUT) without metadata.resourceVersion overwrites whatever is stored, unless the
// kind's strategy refuses that (AllowUnconditionalUpdate false): custom resources, CRDs, Leases,
// PodDisruptionBudgets and the admission, storage and node kinds below. A controller that PUTs a
// custom resource it built from scratch fails against kube-apiserver; it must fail here too.

const CONDITIONAL_ONLY = new Set([
  'customresourcedefinitions.apiextensions.k8s.io',
  'leases.coordination.k8s.io',
  'poddisruptionbudgets.policy',
  'runtimeclasses.node.k8s.io',
  'csidrivers.storage.k8s.io',
  'csinodes.storage.k8s.io',
  'csistoragecapacities.storage.k8s.io',
  'volumeattachments.storage.k8s.io',
  'storageversions.internal.apiserver.k8s.io',
  'clustertrustbundles.certificates.k8s.io',
  'mutatingwebhookconfigurations.admissionregistration.k8s.io',
  'validatingwebhookconfigurations.admissionregistration.k8s.io',
  'validatingadmissionpolicies.admissionregistration.k8s.io',
  'validatingadmissionpolicybindings.admissionregistration.k8s.io',
]);

function requiresResourceVersion(info: ResourceInfo): boolean {
  return info.source === 'crd' || CONDITIONAL_ONLY.has(`${info.resource}.${info.group}`);
}

/**
 * Refuses an update of such a kind that names no resourceVersion, as the store does: Invalid,
 * named by the resource (not the kind), the zero value printed as Go prints a uint64 with %#v.
 * An update that removes a deleting object's last finalizer deletes it before this check.
 */
export function refuseUnconditionalUpdate(info: ResourceInfo, name: string, body: KubeObject, current: Readonly<KubeObject>): void {
  if (body.metadata?.resourceVersion || !requiresResourceVersion(info)) return;
  if (current.metadata.deletionTimestamp && !body.metadata?.finalizers?.length) return;
  throw invalid(info.group, info.resource, name, [
    { reason: 'FieldValueInvalid', message: 'Invalid value: 0x0: must be specified for an update', field: 'metadata.resourceVersion' },
  ]);
}
