import type { GroupVersionResource, KubeObject } from '../../shared/k8s.ts';
import { ApiError } from '../../shared/apiError.ts';
import type { SimObjects } from '../simObjects.ts';
import type { RequestContext } from '../store/types.ts';

// The few calls the built-in controllers make, through the cluster's own API (so the store's
// validation, defaults, watch events and client insight see them as any other write).

export const GVR = {
  namespaces: { group: '', version: 'v1', resource: 'namespaces' },
  events: { group: '', version: 'v1', resource: 'events' },
  configmaps: { group: '', version: 'v1', resource: 'configmaps' },
  serviceaccounts: { group: '', version: 'v1', resource: 'serviceaccounts' },
  services: { group: '', version: 'v1', resource: 'services' },
  endpoints: { group: '', version: 'v1', resource: 'endpoints' },
  endpointslices: { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices' },
  clusterroles: { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles' },
  clusterrolebindings: { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterrolebindings' },
  roles: { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'roles' },
  rolebindings: { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'rolebindings' },
  priorityclasses: { group: 'scheduling.k8s.io', version: 'v1', resource: 'priorityclasses' },
  prioritylevelconfigurations: { group: 'flowcontrol.apiserver.k8s.io', version: 'v1beta3', resource: 'prioritylevelconfigurations' },
  flowschemas: { group: 'flowcontrol.apiserver.k8s.io', version: 'v1beta3', resource: 'flowschemas' },
} satisfies Record<string, GroupVersionResource>;

export function isApiError(err: unknown, code: number): boolean {
  return err instanceof ApiError && err.code === code;
}

/** The object, or undefined when it does not exist. */
export function getOrUndefined(cluster: SimObjects, gvr: GroupVersionResource, namespace: string, name: string): Readonly<KubeObject> | undefined {
  try {
    return cluster.get(gvr, namespace, name).object;
  } catch (err) {
    if (isApiError(err, 404)) return undefined;
    throw err;
  }
}

/** Creates; someone else creating it first is as good (AlreadyExists is not an error). */
export function createIfMissing(cluster: SimObjects, gvr: GroupVersionResource, namespace: string, body: KubeObject, ctx?: RequestContext): void {
  try {
    cluster.create(gvr, namespace, structuredClone(body), ctx);
  } catch (err) {
    if (!isApiError(err, 409)) throw err;
  }
}
