import type { ListerWatcher, ListOptions, WatchOptions, WatchSink } from '../../../src/informer/listerWatcher.ts';
import type { Cluster } from '../../../src/kube/cluster.ts';
import type { ApiResource, KubeList, KubeObject, WatchEventType } from '../../../src/shared/k8s.ts';
import type { ClusterBackend } from '../../../src/vscode/model/clusterSession.ts';

// An in-memory API for one resource: list answers the current objects, watch streams what tests push.

export const CONFIGMAPS: ApiResource = {
  group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, shortNames: ['cm'], singularName: 'configmap', verbs: ['list', 'watch'],
};

export class FakeApi implements ListerWatcher {
  rv = 10;
  objects = new Map<string, KubeObject>();
  sinks: WatchSink[] = [];

  put(namespace: string, name: string, data: Record<string, string> = {}, extra: Partial<KubeObject> = {}): KubeObject {
    const key = `${namespace}/${name}`;
    const type: WatchEventType = this.objects.has(key) ? 'MODIFIED' : 'ADDED';
    const obj: KubeObject = {
      apiVersion: 'v1', kind: 'ConfigMap', ...extra,
      metadata: { namespace, name, uid: `uid-${name}`, resourceVersion: String(++this.rv), labels: { app: name }, ...extra.metadata },
      data,
    };
    this.objects.set(key, obj);
    for (const s of this.sinks) s.event({ type, object: obj });
    return obj;
  }

  remove(namespace: string, name: string): void {
    const key = `${namespace}/${name}`;
    const obj = this.objects.get(key);
    if (!obj) return;
    this.objects.delete(key);
    const gone = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(++this.rv) } };
    for (const s of this.sinks) s.event({ type: 'DELETED', object: gone });
  }

  /** Ends every watch with 410 Gone, as a server whose history moved past the watch's resourceVersion: the informer relists. */
  expireWatches(): void {
    const gone = { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', reason: 'Expired', code: 410, message: 'too old resource version' } as unknown as KubeObject;
    for (const s of this.sinks) s.event({ type: 'ERROR', object: gone });
  }

  async list(_options: ListOptions): Promise<KubeList> {
    return { metadata: { resourceVersion: String(this.rv) }, items: [...this.objects.values()] };
  }

  async watch(_options: WatchOptions, sink: WatchSink) {
    this.sinks.push(sink);
    return { stop: () => { this.sinks = this.sinks.filter((s) => s !== sink); } };
  }
}

export function fakeBackend(api: FakeApi, name = 'test'): ClusterBackend {
  const cluster = {
    server: 'https://fake.invalid',
    contextName: name,
    namespace: 'default',
    listerWatcher: () => api,
    discover: async () => ({ groups: [], resources: [CONFIGMAPS], failed: [] }),
    resolve: async () => CONFIGMAPS,
    close: () => {},
  } as unknown as Cluster;
  return { kind: 'kubeconfig', name, cluster, dispose: async () => {} };
}

/** Lets queued microtasks and timers run (informer drains, change batches). */
export function settle(ms = 5): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
