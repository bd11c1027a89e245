import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import type { ListerWatcher, ListOptions } from '../../../src/informer/listerWatcher.ts';
import type { KubeList, KubeObject } from '../../../src/shared/k8s.ts';
import { FakeClock } from '../../../src/shared/clock.ts';
import { Lab } from '../../../src/vscode/model/lab.ts';
import { statusText } from '../../../src/vscode/statusText.ts';
import { TreeModel } from '../../../src/vscode/tree/treeModel.ts';
import { CONFIGMAPS, FakeApi, fakeBackend, settle } from './fakeBackend.ts';

/** A server of `total` ConfigMaps that answers each list page only when the test lets it. */
class PagedServer implements ListerWatcher {
  private readonly items: KubeObject[];
  private gates: (() => void)[] = [];
  pagesServed = 0;

  constructor(total: number) {
    this.items = Array.from({ length: total }, (_, i) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'big', name: `cm-${i}`, resourceVersion: String(100 + i) } }));
  }

  async list(options: ListOptions): Promise<KubeList> {
    await new Promise<void>((resolve) => this.gates.push(resolve));
    const from = Number(options.continue ?? 0);
    const limit = options.limit ?? this.items.length;
    const to = Math.min(this.items.length, from + limit);
    this.pagesServed++;
    return { metadata: { resourceVersion: '9999', ...(to < this.items.length ? { continue: String(to) } : {}) }, items: this.items.slice(from, to) };
  }

  async watch() {
    return { stop() {} };
  }

  /** Lets the waiting page request answer. */
  async releasePage(): Promise<void> {
    while (this.gates.length === 0) await settle(1);
    this.gates.shift()!();
    await settle();
  }
}

async function start(server: PagedServer, maxObjects = 0) {
  const clock = new FakeClock(1_700_000_000_000);
  const warnings: string[] = [];
  const backend = fakeBackend(new FakeApi());
  (backend.cluster as unknown as { listerWatcher: () => ListerWatcher }).listerWatcher = () => server;
  const lab = new Lab({ clock, createBackend: async () => backend, maxTimelineEvents: 1000, informerPolicy: () => ({ keepManagedFields: false, maxObjects }), warn: (m) => warnings.push(m) });
  const cluster = await lab.connect({ kind: 'kubeconfig', context: 'test' }, 'test');
  const informer = lab.startInformer(cluster.id, { resource: CONFIGMAPS, namespace: '', labelSelector: '' });
  return { lab, clock, informer, warnings, tree: new TreeModel(lab) };
}

describe('progress of a large list', () => {
  it('shows objects, pages and rate in the informer row and the status bar while the pages arrive, then the count', async () => {
    const server = new PagedServer(1200);
    const { lab, clock, informer, tree } = await start(server);
    await settle();
    assert.deepEqual(informer.listProgress()?.objects, 0, 'listing, nothing arrived yet');
    clock.step(500);
    await server.releasePage();
    clock.step(500);
    await server.releasePage();
    const progress = informer.listProgress();
    assert.deepEqual([progress?.objects, progress?.pages, Math.round(progress?.perSecond ?? 0)], [1000, 2, 1000]);
    assert.equal(informer.count, 0, 'the cache fills only when the list is complete');
    const node = tree.informerNode(informer.id);
    assert.ok(node);
    assert.match(tree.item(node).description ?? '', /syncing · 1,000 objects listed \(2 pages, 1\.0k\/s\)/);
    assert.match(statusText(lab).text, /\$\(sync~spin\) configmaps: 1,000 objects listed \(2 pages, 1\.0k\/s\)/);

    await server.releasePage();
    assert.equal(await informer.informer.waitForSync(), true);
    await settle();
    assert.equal(informer.listProgress(), undefined);
    assert.match(tree.item(node).description ?? '', /synced · rv 9999 · 1,200 objects/);
    assert.doesNotMatch(statusText(lab).text, /listed/);
    await lab.dispose();
  });
});

describe('the soft limit on objects (controllerLab.informer.maxObjects)', () => {
  it('warns once, naming the informer and the count, while the list is still arriving; the informer keeps running', async () => {
    const server = new PagedServer(1700);
    const { lab, informer, warnings } = await start(server, 600);
    await server.releasePage();
    assert.deepEqual(warnings, [], '500 objects: under the limit');
    await server.releasePage();
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /configmaps on test is about to hold 1,000 objects, more than controllerLab\.informer\.maxObjects \(600\)/);
    assert.equal(informer.count, 0, 'warned before the cache holds them');
    await server.releasePage();
    await server.releasePage();
    assert.equal(await informer.informer.waitForSync(), true);
    await settle();
    assert.equal(informer.count, 1700);
    assert.equal(warnings.length, 1, 'once per informer');
    await lab.dispose();
  });

  it('warns when watch events take an informer over the limit after its list', async () => {
    const api = new FakeApi();
    api.put('default', 'a');
    const warnings: string[] = [];
    const lab = new Lab({ clock: new FakeClock(0), createBackend: async () => fakeBackend(api), maxTimelineEvents: 100, informerPolicy: () => ({ keepManagedFields: false, maxObjects: 2 }), warn: (m) => warnings.push(m) });
    const cluster = await lab.connect({ kind: 'kubeconfig', context: 'test' }, 'test');
    const informer = lab.startInformer(cluster.id, { resource: CONFIGMAPS, namespace: '', labelSelector: '' });
    assert.equal(await informer.informer.waitForSync(), true);
    api.put('default', 'b');
    await settle();
    assert.deepEqual(warnings, []);
    api.put('default', 'c');
    api.put('default', 'd');
    await settle();
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /configmaps on test now holds 3 objects, more than controllerLab\.informer\.maxObjects \(2\)/);
    await lab.dispose();
  });
});
