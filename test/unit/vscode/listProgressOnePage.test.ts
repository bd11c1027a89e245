import { it } from 'node:test';
import * as assert from 'node:assert/strict';
import { ITEMS_PREPARED } from '../../../src/informer/listerWatcher.ts';
import type { ListerWatcher, ListOptions } from '../../../src/informer/listerWatcher.ts';
import type { KubeList, KubeObject } from '../../../src/shared/k8s.ts';
import { FakeClock } from '../../../src/shared/clock.ts';
import { Lab } from '../../../src/vscode/model/lab.ts';
import { statusText } from '../../../src/vscode/statusText.ts';
import { CONFIGMAPS, FakeApi, fakeBackend, settle } from './fakeBackend.ts';

// A list served in one piece (kube-apiserver answers a list at resourceVersion 0 from its watch
// cache whole, whatever the limit): 50,000 Pods arrive as one page that takes many seconds to
// decode. The status bar counts the objects decoded so far instead of saying "0 objects listed"
// until the very end.

/** One page of `total` ConfigMaps, decoded item by item (as the HTTP client does), pausing after `pauseAt`. */
class OnePageServer implements ListerWatcher {
  private resume: (() => void) | undefined;
  paused: Promise<void>;
  private markPaused!: () => void;

  private readonly total: number;
  private readonly pauseAt: number;

  constructor(total: number, pauseAt: number) {
    this.total = total;
    this.pauseAt = pauseAt;
    this.paused = new Promise((r) => (this.markPaused = r));
  }

  async list(_options: ListOptions, _signal?: AbortSignal, prepareItem?: (item: KubeObject) => KubeObject): Promise<KubeList & { [ITEMS_PREPARED]?: boolean }> {
    const items: KubeObject[] = [];
    for (let i = 0; i < this.total; i++) {
      if (i === this.pauseAt) {
        this.markPaused();
        await new Promise<void>((r) => (this.resume = r));
      }
      const item: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'big', name: `cm-${i}`, resourceVersion: String(100 + i) } };
      items.push(prepareItem ? prepareItem(item) : item);
    }
    return { metadata: { resourceVersion: '9999' }, items, [ITEMS_PREPARED]: true };
  }

  async watch() {
    return { stop() {} };
  }

  release(): void {
    this.resume?.();
  }
}

it('a list that comes as one large page: the status bar counts what was decoded so far, then the count', async () => {
  const server = new OnePageServer(3500, 2500);
  const clock = new FakeClock(1_700_000_000_000);
  const backend = fakeBackend(new FakeApi());
  (backend.cluster as unknown as { listerWatcher: () => ListerWatcher }).listerWatcher = () => server;
  const lab = new Lab({ clock, createBackend: async () => backend, maxTimelineEvents: 10_000, informerPolicy: () => ({ keepManagedFields: false, maxObjects: 0 }), warn: () => {} });
  const cluster = await lab.connect({ kind: 'kubeconfig', context: 'test' }, 'test');
  const informer = lab.startInformer(cluster.id, { resource: CONFIGMAPS, namespace: '', labelSelector: '' });
  await server.paused;
  clock.step(1000);
  await settle();
  assert.equal(informer.listProgress()?.objects, 2000, 'decoded so far, in steps of 1,000');
  assert.match(statusText(lab).text, /\$\(sync~spin\) configmaps: 2,000 objects listed \(0 pages, 2\.0k\/s\)/);
  server.release();
  assert.equal(await informer.informer.waitForSync(), true);
  await settle();
  assert.equal(informer.count, 3500);
  assert.doesNotMatch(statusText(lab).text, /listed/);
  await lab.dispose();
});
