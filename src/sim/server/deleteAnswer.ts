import type { StoredObject } from '../store/types.ts';
import type { ResourceInfo } from '../vocabulary/resourceInfo.ts';

// What a DELETE answers with. kube-apiserver returns the object while it lingers (finalizers), but
// once it is gone only the registries that set ReturnDeletedObject (or delete by hand) return it;
// every other one answers a Status Success naming what went.
const RETURNS_DELETED_OBJECT = new Set([
  '/pods', '/services', '/serviceaccounts', '/namespaces', '/resourcequotas', '/replicationcontrollers',
  '/persistentvolumes', '/persistentvolumeclaims', 'storage.k8s.io/storageclasses', 'storage.k8s.io/csidrivers',
  'apiextensions.k8s.io/customresourcedefinitions',
]);

export function deleteAnswerJson(info: ResourceInfo, deleted: boolean, stored: StoredObject, objectJson: () => string): string {
  if (!deleted || RETURNS_DELETED_OBJECT.has(`${info.group}/${info.resource}`)) return objectJson();
  const meta = stored.object.metadata;
  const details: Record<string, string> = { name: meta.name ?? '' };
  if (info.group) details.group = info.group;
  details.kind = info.resource;
  if (meta.uid) details.uid = meta.uid;
  return JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details });
}
