import type { GroupVersionResource, KubeObject } from '../../shared/k8s.ts';
import { calculateUsed, toJson } from '../quota/index.ts';
import type { RequestContext } from '../store/types.ts';
import type { ControllerDefinition, WatchedResource } from './controllerLoop.ts';
import { writeStatusIfChanged } from './status.ts';
import { listObjects, mutable, type WorkloadCluster } from './workloadCluster.ts';

// The resource quota controller (pkg/controller/resourcequota): each ResourceQuota's status gets
// `hard` from its spec and `used` counted from the objects of its namespace, as soon as a quota or
// an object it may count changes, and again every five minutes (the controller's full resync,
// which also catches resources it does not watch).

export const RESOURCE_QUOTAS: GroupVersionResource = { group: '', version: 'v1', resource: 'resourcequotas' };
const FULL_RESYNC_MS = 5 * 60_000;

/** What a change of recounts its namespace's quotas at once (kube's quota monitors watch every resource; these are the common ones). */
const RECOUNTED: { group: string; resource: string }[] = [
  { group: '', resource: 'pods' },
  { group: '', resource: 'services' },
  { group: '', resource: 'configmaps' },
  { group: '', resource: 'secrets' },
  { group: '', resource: 'replicationcontrollers' },
  { group: '', resource: 'persistentvolumeclaims' },
  { group: 'apps', resource: 'replicasets' },
  { group: 'apps', resource: 'deployments' },
  { group: 'apps', resource: 'statefulsets' },
  { group: 'apps', resource: 'daemonsets' },
  { group: 'batch', resource: 'jobs' },
  { group: 'batch', resource: 'cronjobs' },
];

const byNamespace = (object: Readonly<KubeObject>): string[] => (object.metadata.namespace ? [object.metadata.namespace] : []);

export function resourceQuotaController(cluster: WorkloadCluster): ControllerDefinition {
  const watches: WatchedResource[] = [{ gvr: RESOURCE_QUOTAS, keysFor: byNamespace }];
  for (const { group, resource } of RECOUNTED) {
    const version = cluster.servedVersion(group, resource);
    if (version) watches.push({ gvr: { group, version, resource }, keysFor: byNamespace });
  }
  // Resources a quota counts by `count/<resource>.<group>` beyond those above (a custom resource,
  // say): watched once a quota names them, as kube's quota monitors watch what quotas evaluate.
  const counted = new Map<string, WatchedResource>();
  const watchCounted = (hard: Record<string, unknown>): void => {
    for (const name of Object.keys(hard)) {
      if (!name.startsWith('count/')) continue;
      const qualified = name.slice('count/'.length);
      const dot = qualified.indexOf('.');
      const resource = dot < 0 ? qualified : qualified.slice(0, dot);
      const group = dot < 0 ? '' : qualified.slice(dot + 1);
      if (counted.has(qualified) || RECOUNTED.some((r) => r.group === group && r.resource === resource)) continue;
      const version = cluster.servedVersion(group, resource);
      if (version) counted.set(qualified, { gvr: { group, version, resource }, keysFor: byNamespace });
    }
  };
  return {
    name: 'resourcequota-controller',
    watches,
    moreWatches: () => counted.values(),
    // Keys are namespaces: every quota of one is recounted from one listing of its objects.
    reconcile(namespace: string, ctx: RequestContext): number | void {
      const quotas = listObjects(cluster, RESOURCE_QUOTAS, namespace, ctx);
      if (quotas.length === 0) return;
      const listed = new Map<string, readonly KubeObject[]>();
      const objectsOf = (group: string, resource: string): readonly KubeObject[] => {
        const key = `${resource}.${group}`;
        let objects = listed.get(key);
        if (!objects) {
          const version = cluster.servedVersion(group, resource);
          objects = version ? listObjects(cluster, { group, version, resource }, namespace, ctx) : [];
          listed.set(key, objects);
        }
        return objects;
      };
      const now = cluster.clock.now();
      for (const quota of quotas) {
        if (quota.metadata.deletionTimestamp) continue;
        const hard = ((quota.spec ?? {}) as { hard?: Record<string, unknown> }).hard ?? {};
        watchCounted(hard);
        writeStatusIfChanged(cluster, RESOURCE_QUOTAS, mutable(quota), { hard: structuredClone(hard), used: toJson(calculateUsed(quota, objectsOf, now)) }, ctx);
      }
      return FULL_RESYNC_MS;
    },
  };
}
