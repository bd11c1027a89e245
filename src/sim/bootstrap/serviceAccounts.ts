import type { KubeObject } from '../../shared/k8s.ts';
import type { SharedIndexInformer } from '../../informer/index.ts';
import type { SimObjects } from '../simObjects.ts';
import type { RequestContext } from '../store/types.ts';
import { isApiError, GVR } from './objectAccess.ts';

// kube-controller-manager's serviceaccount controller: every active namespace has a `default`
// ServiceAccount (pods that name none run as it); deleted, it is created again.

export const DEFAULT_SERVICE_ACCOUNT = 'default';

export function syncServiceAccounts(cluster: SimObjects, namespaces: SharedIndexInformer, serviceAccounts: SharedIndexInformer, namespace: string, ctx: RequestContext): void {
  const ns = namespaces.indexer.get(namespace) as Readonly<KubeObject> | undefined;
  if (!ns || (ns as { status?: { phase?: string } }).status?.phase !== 'Active') return;
  if (serviceAccounts.indexer.has(`${namespace}/${DEFAULT_SERVICE_ACCOUNT}`)) return;
  try {
    cluster.create(GVR.serviceaccounts, namespace, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: DEFAULT_SERVICE_ACCOUNT } }, ctx);
  } catch (err) {
    if (!isApiError(err, 409) && !isApiError(err, 403) && !isApiError(err, 404)) throw err;
  }
}
