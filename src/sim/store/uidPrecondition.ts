import type { ApiError } from '../../shared/apiError.ts';
import { conflict } from '../../shared/apiErrors.ts';
import type { ResourceInfo } from '../vocabulary/resourceInfo.ts';

// An update whose body carries a metadata.uid makes it a precondition of the storage's write: an
// object of another uid (deleted and made again since the writer read it) or none at all is a 409
// Conflict in etcd3 storage's words — the error a controller retries on, not a 422.

/** Where kube-apiserver keeps a kind in etcd: its resource, but for the few registries that chose another prefix. */
const PREFIXES: Record<string, string> = {
  '/services': 'services/specs',
  '/endpoints': 'services/endpoints',
  '/nodes': 'minions',
  '/replicationcontrollers': 'controllers',
  'networking.k8s.io/ingresses': 'ingress',
};
const GROUP_PREFIXED = new Set(['apiextensions.k8s.io', 'apiregistration.k8s.io']);

function etcdKey(info: ResourceInfo, namespace: string, name: string): string {
  const prefix = PREFIXES[`${info.group}/${info.resource}`]
    ?? (info.source === 'crd' || GROUP_PREFIXED.has(info.group) ? `${info.group}/${info.resource}` : info.resource);
  return `/registry/${prefix}/${info.namespaced ? `${namespace}/` : ''}${name}`;
}

export function uidPreconditionFailed(info: ResourceInfo, namespace: string, name: string, wanted: string, found: string): ApiError {
  return conflict(info.group, info.resource, name,
    `StorageError: invalid object, Code: 4, Key: ${etcdKey(info, namespace, name)}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${wanted}, UID in object meta: ${found}`);
}
