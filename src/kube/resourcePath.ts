import type { GroupVersionResource } from '../shared/k8s.ts';

/** The collection URL of a resource: `/api/v1/namespaces/NS/configmaps`, `/apis/apps/v1/deployments`. */
export function collectionPath(gvr: GroupVersionResource, namespace?: string): string {
  const root = gvr.group === '' ? `/api/${gvr.version}` : `/apis/${gvr.group}/${gvr.version}`;
  const ns = namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${root}${ns}/${gvr.resource}`;
}
