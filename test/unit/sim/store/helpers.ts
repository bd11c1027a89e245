import { FakeClock } from '../../../../src/shared/clock.ts';
import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { SimCluster, type SimClusterOptions } from '../../../../src/sim/simCluster.ts';
import type { SimWatch, SimWatchEvent, WatchCloseReason, WatchRequest } from '../../../../src/sim/store/types.ts';

export const CM = { group: '', version: 'v1', resource: 'configmaps' };
export const NS = { group: '', version: 'v1', resource: 'namespaces' };
export const PODS = { group: '', version: 'v1', resource: 'pods' };
export const DEPLOY = { group: 'apps', version: 'v1', resource: 'deployments' };
export const RS = { group: 'apps', version: 'v1', resource: 'replicasets' };
export const CRD = { group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' };

export function newCluster(options: SimClusterOptions = {}): { cluster: SimCluster; clock: FakeClock } {
  const clock = new FakeClock();
  const cluster = new SimCluster({ clock, ...options });
  cluster.seed(1);
  return { cluster, clock };
}

export function configMap(name: string, labels?: Record<string, string>, data: Record<string, string> = { k: 'v' }): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...(labels ? { labels } : {}) }, data };
}

/** The smallest pod spec the API server accepts: one container with a name and an image. */
export const POD_SPEC = { containers: [{ name: 'c', image: 'busybox:1' }] };

/** A Deployment's or ReplicaSet's spec the API server accepts: a selector matching the template's labels, a valid pod spec. */
export function workloadSpec(app = 'web'): Record<string, unknown> {
  return { selector: { matchLabels: { app } }, template: { metadata: { labels: { app } }, spec: structuredClone(POD_SPEC) } };
}

/** Lets queued microtasks (watch delivery) run. */
export async function tick(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

export interface Recorded {
  events: SimWatchEvent[];
  closed: WatchCloseReason | undefined;
  handle: SimWatch;
  /** `TYPE name@rv` lines, for readable assertions. */
  summary(): string[];
}

export function record(cluster: SimCluster, gvr: typeof CM, request: WatchRequest): Recorded {
  const rec: Recorded = {
    events: [],
    closed: undefined,
    handle: undefined as unknown as SimWatch,
    summary: () => rec.events.map((e) => `${e.type} ${e.object.metadata?.name ?? ''}@${e.object.metadata?.resourceVersion ?? ''}`.replace(' @', ' @')),
  };
  rec.handle = cluster.watch(gvr, request, {
    event: (e) => rec.events.push(e),
    close: (reason) => { rec.closed = reason; },
  });
  return rec;
}
