import { createSharedInformer, type SharedIndexInformer } from '../../informer/index.ts';
import type { InProcessCluster } from '../simObjects.ts';
import type { RequestContext } from '../store/types.ts';
import { syncAggregatedRole } from './clusterRoleAggregation.ts';
import { controllerLoop, type ControllerLoop } from './controllerLoop.ts';
import { GVR } from './objectAccess.ts';
import { ROOT_CA_CONFIGMAP, syncRootCa } from './rootCaPublisher.ts';
import { DEFAULT_SERVICE_ACCOUNT, syncServiceAccounts } from './serviceAccounts.ts';
import { controllerManagerAgent } from '../workloads/workloadCluster.ts';

// The part of kube-controller-manager every cluster has from its first second and that clients
// count on: the root CA ConfigMap and the `default` ServiceAccount in every namespace, and the
// aggregated ClusterRoles (admin/edit/view). It runs in the sim's process but talks to the cluster
// as any controller does, as a kubeadm cluster's does: shared informers under one client, and each
// controller writing as its own service account, so the Clients view lists them with their
// watches and writes.

export interface ControllerManagerOptions {
  /** The CA clients verify the server with; without one (plain HTTP) no kube-root-ca.crt is published. */
  caPem?: string;
  onError?: (err: unknown) => void;
}

/** The client kube-controller-manager's shared informers list and watch with. */
export const SHARED_INFORMERS_AGENT = 'kube-controller-manager/v1.28.4 (linux/amd64) kubernetes/sim/shared-informers';

const client = (userAgent: string): RequestContext => ({ client: { userAgent, tokenId: '' } });

export interface ControllerManager {
  /** Resolves once its informers have synced and its workers run. */
  readonly started: Promise<void>;
  stop(): void;
}

interface Named {
  readonly metadata: { readonly name?: string | undefined; readonly namespace?: string | undefined };
}

const namespaceOf = (obj: Named): string => obj.metadata.namespace ?? '';

export function startControllerManager(cluster: InProcessCluster, options: ControllerManagerOptions): ControllerManager {
  const ctx = client(SHARED_INFORMERS_AGENT);
  const onError = options.onError ?? (() => {});
  const informer = (name: string, gvr: typeof GVR.namespaces, fieldSelector?: string): SharedIndexInformer =>
    createSharedInformer({ name, listerWatcher: cluster.listerWatcher(gvr, undefined, ctx, { shareFrozen: true }), clock: cluster.clock, ...(fieldSelector ? { fieldSelector } : {}) });

  const namespaces = informer('namespaces', GVR.namespaces);
  const serviceAccounts = informer('serviceaccounts', GVR.serviceaccounts, `metadata.name=${DEFAULT_SERVICE_ACCOUNT}`);
  const clusterRoles = informer('clusterroles.rbac.authorization.k8s.io', GVR.clusterroles);
  const caPem = options.caPem;
  const configMaps = caPem ? informer('configmaps', GVR.configmaps, `metadata.name=${ROOT_CA_CONFIGMAP}`) : undefined;
  const informers = [namespaces, serviceAccounts, clusterRoles, ...(configMaps ? [configMaps] : [])];

  const loops: ControllerLoop[] = [];
  const saWriter = client(controllerManagerAgent('service-account-controller'));
  const saLoop = controllerLoop('serviceaccount', cluster.clock, (ns) => syncServiceAccounts(cluster, namespaces, serviceAccounts, ns, saWriter), onError);
  const aggregationWriter = client(controllerManagerAgent('clusterrole-aggregation-controller'));
  const aggregationLoop = controllerLoop('clusterrole-aggregation', cluster.clock, (name) => syncAggregatedRole(cluster, clusterRoles, name, aggregationWriter), onError);
  loops.push(saLoop, aggregationLoop);
  const rootCaWriter = client(controllerManagerAgent('root-ca-cert-publisher'));
  const rootCaLoop = configMaps && caPem ? controllerLoop('root-ca-cert-publisher', cluster.clock, (ns) => syncRootCa(cluster, configMaps, caPem, ns, rootCaWriter), onError) : undefined;
  if (rootCaLoop) loops.push(rootCaLoop);

  const namespaceChanged = (ns: Named) => {
    const name = ns.metadata.name ?? '';
    saLoop.queue.add(name);
    rootCaLoop?.queue.add(name);
  };
  namespaces.addEventHandler({ onAdd: namespaceChanged, onUpdate: (_old, ns) => namespaceChanged(ns) }, { name: 'namespace-changes' });
  serviceAccounts.addEventHandler({ onDelete: (sa) => saLoop.queue.add(namespaceOf(sa)) }, { name: 'serviceaccount-deleted' });
  configMaps?.addEventHandler({
    onUpdate: (_old, cm) => rootCaLoop?.queue.add(namespaceOf(cm)),
    onDelete: (cm) => rootCaLoop?.queue.add(namespaceOf(cm)),
  }, { name: 'root-ca-changes' });
  // Any ClusterRole's change may change what an aggregated one gathers: each of those is resynced.
  const requeueAggregated = () => {
    for (const role of clusterRoles.indexer.list()) if ((role as { aggregationRule?: unknown }).aggregationRule) aggregationLoop.queue.add(role.metadata.name ?? '');
  };
  clusterRoles.addEventHandler({ onAdd: requeueAggregated, onUpdate: requeueAggregated, onDelete: requeueAggregated }, { name: 'aggregation-sources' });

  let stopped = false;
  for (const i of informers) i.onError(onError);
  for (const i of informers) i.run();
  const started = Promise.all(informers.map((i) => i.waitForSync())).then(() => {
    if (!stopped) for (const loop of loops) loop.run();
  });
  return {
    started,
    stop() {
      stopped = true;
      for (const i of informers) i.stop();
      for (const loop of loops) loop.stop();
    },
  };
}
