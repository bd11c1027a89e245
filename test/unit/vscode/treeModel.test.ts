import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { FakeClock } from '../../../src/shared/clock.ts';
import { Lab } from '../../../src/vscode/model/lab.ts';
import type { InformerChange } from '../../../src/vscode/model/informerSession.ts';
import { EXPAND_NAMESPACES_UP_TO, TreeModel } from '../../../src/vscode/tree/treeModel.ts';
import { ExpansionMemory } from '../../../src/vscode/tree/expansionMemory.ts';
import { NAMESPACE_ICON, objectIconId } from '../../../src/vscode/tree/kindIcons.ts';
import type { TreeNode } from '../../../src/vscode/tree/treeNodes.ts';
import { CONFIGMAPS, FakeApi, fakeBackend, settle } from './fakeBackend.ts';

async function labWith(api: FakeApi) {
  const clock = new FakeClock(1_700_000_000_000);
  const lab = new Lab({ clock, createBackend: async () => fakeBackend(api), maxTimelineEvents: 1000 });
  const cluster = await lab.connect({ kind: 'kubeconfig', context: 'test' }, 'test');
  const informer = lab.startInformer(cluster.id, { resource: CONFIGMAPS, namespace: '', labelSelector: '' });
  assert.equal(await informer.informer.waitForSync(), true);
  await settle();
  return { lab, clock, cluster, informer, tree: new TreeModel(lab) };
}

const labels = (tree: TreeModel, nodes: TreeNode[]) => nodes.map((n) => tree.item(n).label);

describe('cluster tree model', () => {
  it('shows cluster → informer → namespace → object with resourceVersions and counts', async () => {
    const api = new FakeApi();
    api.put('default', 'b');
    api.put('default', 'a');
    api.put('prod', 'web');
    const { lab, tree } = await labWith(api);
    const [cluster] = tree.roots();
    assert.ok(cluster);
    assert.match(tree.item(cluster).description ?? '', /^1\/1 synced/);
    const [informer] = tree.children(cluster);
    assert.ok(informer);
    const informerItem = tree.item(informer);
    assert.equal(informerItem.label, 'configmaps');
    assert.equal(informerItem.description, 'all namespaces · synced · rv 13 · 3 objects');
    assert.deepEqual(labels(tree, tree.children(informer)), ['default', 'prod']);
    const [defaultNs] = tree.children(informer);
    assert.ok(defaultNs);
    assert.equal(tree.item(defaultNs).description, '2 objects');
    const objects = tree.children(defaultNs);
    assert.deepEqual(labels(tree, objects), ['a', 'b']);
    assert.equal(tree.item(objects[0] as TreeNode).description, 'rv 12 · ADDED 0s ago');
    assert.match(tree.resolveTooltip(objects[0] as TreeNode) ?? '', /uid-a/);
    await lab.dispose();
  });

  it('follows watch events: a modified object gets its new RV, and only it is reported changed', async () => {
    const api = new FakeApi();
    api.put('default', 'a');
    api.put('default', 'b');
    const { lab, tree, clock, informer } = await labWith(api);
    const changes: InformerChange[] = [];
    informer.onDidChange((c) => changes.push(c));
    clock.step(5000);
    api.put('default', 'a', { v: '2' });
    await settle();
    const node = tree.objectNode(informer.id, 'default/a');
    assert.ok(node);
    assert.equal(tree.item(node).description, 'rv 13 · MODIFIED 0s ago');
    clock.step(2000);
    assert.equal(tree.item(node).description, 'rv 13 · MODIFIED 2s ago');
    assert.deepEqual([...(changes[0]?.objects ?? [])], ['default/a']);
    assert.equal(changes[0]?.namespaces.size, 0, 'no structural change for a modification');
    assert.equal(informer.history.list('default/a').length, 2);
    await lab.dispose();
  });

  it('reports a namespace change when an object is added or deleted, and removes emptied namespaces', async () => {
    const api = new FakeApi();
    api.put('prod', 'web');
    const { lab, tree, informer } = await labWith(api);
    const changes: InformerChange[] = [];
    informer.onDidChange((c) => changes.push(c));
    api.remove('prod', 'web');
    await settle();
    assert.deepEqual([...(changes[0]?.namespaces ?? [])], ['prod']);
    const informerNode = tree.informerNode(informer.id);
    assert.ok(informerNode);
    assert.deepEqual(tree.children(informerNode), []);
    assert.equal(informer.history.latest('prod/web')?.change, 'DELETED');
    await lab.dispose();
  });

  it('keeps one node instance per id and walks parents up to the cluster (reveal)', async () => {
    const api = new FakeApi();
    api.put('default', 'a');
    const { lab, tree, informer } = await labWith(api);
    const fresh = new TreeModel(lab);
    const node = fresh.objectNode(informer.id, 'default/a');
    assert.ok(node);
    const chain: string[] = [];
    for (let n: TreeNode | undefined = node; n; n = fresh.parent(n)) chain.push(n.kind);
    assert.deepEqual(chain, ['object', 'namespace', 'informer', 'cluster']);
    const [c] = tree.roots();
    assert.equal(tree.roots()[0], c, 'same instance across calls');
    await lab.dispose();
  });

  it('shows a failed connection as an error node that says why', async () => {
    const clock = new FakeClock();
    const lab = new Lab({
      clock,
      createBackend: async () => {
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
      },
      maxTimelineEvents: 10,
    });
    await assert.rejects(lab.connect({ kind: 'kubeconfig', context: 'down' }, 'down'));
    const tree = new TreeModel(lab);
    const [cluster] = tree.roots();
    assert.ok(cluster);
    assert.equal(tree.item(cluster).description, 'failed');
    const [error] = tree.children(cluster);
    assert.ok(error);
    assert.equal(error.kind, 'error');
    assert.match(tree.item(error).description ?? '', /ECONNREFUSED/);
    await lab.dispose();
  });

  it('emits timeline events for watch events and lists, and marks a relist (not the first list) once', async () => {
    const api = new FakeApi();
    api.put('default', 'a');
    const { lab, clock } = await labWith(api);
    api.put('default', 'a', { v: '2' });
    api.put('default', 'c');
    await settle();
    const types = () => lab.timeline.events.all().map((e) => `${e.type}:${e.name}`);
    assert.deepEqual(types(), ['ADDED:a', 'MODIFIED:a', 'ADDED:c']);
    assert.equal(lab.timeline.events.all()[1]?.resourceVersion, '12');
    api.expireWatches();
    await settle();
    // The relist waits client-go's reflector backoff (0.8–1.6 s) first.
    clock.step(1600);
    await settle();
    assert.deepEqual(types(), ['ADDED:a', 'MODIFIED:a', 'ADDED:c', 'ERROR:', 'EXPIRED:', 'RELIST:']);
    assert.equal(lab.timeline.events.all()[5]?.resourceVersion, '13', "the relist's list, at its resourceVersion");
    await lab.dispose();
  });

  it('expands a namespace of 10,000 objects quickly: a page of 1,000 and a "more" row', async () => {
    const api = new FakeApi();
    for (let i = 0; i < 10_000; i++) api.put('big', `cm-${String(i).padStart(5, '0')}`, { i: String(i) });
    const { lab, tree, informer } = await labWith(api);
    const ns = tree.children(tree.informerNode(informer.id))[0];
    assert.ok(ns);
    const runs: number[] = [];
    let children: TreeNode[] = [];
    for (let run = 0; run < 3; run++) {
      const t0 = performance.now();
      children = tree.children(ns);
      for (const child of children) tree.item(child);
      runs.push(performance.now() - t0);
    }
    assert.equal(children.length, 1001);
    const more = children[1000];
    assert.ok(more && more.kind === 'more');
    assert.equal(tree.item(more).label, 'Show more… (9,000 not shown)');
    tree.showMore(more);
    assert.equal(tree.children(ns).length, 6001);
    const median = [...runs].sort((a, b) => a - b)[1] as number;
    console.log(`expand 10k (first page): runs ${runs.map((r) => r.toFixed(1)).join(', ')} ms (median ${median.toFixed(1)} ms)`);
    assert.ok(median < 500, `median ${median} ms`);

    // Every object can still be revealed: its page is included on demand.
    const all: number[] = [];
    const t1 = performance.now();
    const last = tree.objectNode(informer.id, 'big/cm-09999');
    assert.ok(last);
    const page = tree.children(ns);
    for (const child of page) tree.item(child);
    all.push(performance.now() - t1);
    assert.equal(page.length, 10_000);
    assert.ok(page.includes(last));
    console.log(`expand 10k (all pages, as reveal of the last object needs): ${all[0]!.toFixed(1)} ms`);
    await lab.dispose();
  });
});

describe('cluster tree: seeing objects is quick', () => {
  it('opens informers and the namespaces of a small cache, so objects show without expanding anything', async () => {
    const api = new FakeApi();
    api.put('default', 'a');
    api.put('prod', 'web');
    const { lab, tree } = await labWith(api);
    const [cluster] = tree.roots();
    const [informer] = tree.children(cluster);
    assert.equal(tree.item(cluster!).collapsible, 'expanded');
    assert.equal(tree.item(informer!).collapsible, 'expanded');
    for (const ns of tree.children(informer)) assert.equal(tree.item(ns).collapsible, 'expanded', `namespace ${tree.item(ns).label}`);
    await lab.dispose();
  });

  it('keeps a big cache’s namespaces closed until opened', async () => {
    const api = new FakeApi();
    for (let i = 0; i <= EXPAND_NAMESPACES_UP_TO; i++) api.put(`ns${i % 3}`, `o${i}`);
    const { lab, tree } = await labWith(api);
    const [informer] = tree.children(tree.roots()[0]);
    for (const ns of tree.children(informer)) assert.equal(tree.item(ns).collapsible, 'collapsed');
    await lab.dispose();
  });

  it('remembers what the user expanded and collapsed, across a reload (the workspace state)', async () => {
    const api = new FakeApi();
    api.put('default', 'a');
    api.put('prod', 'web');
    const saved = new Map<string, unknown>();
    const memento = { get: <T>(k: string) => saved.get(k) as T | undefined, update: async (k: string, v: unknown) => void saved.set(k, JSON.parse(JSON.stringify(v))) };
    const first = await labWith(api);
    first.tree.expansion = new ExpansionMemory(memento);
    const [informer] = first.tree.children(first.tree.roots()[0]);
    const [defaultNs] = first.tree.children(informer);
    (first.tree.expansion as ExpansionMemory).set(defaultNs!.id, false);
    assert.equal(first.tree.item(defaultNs!).collapsible, 'collapsed');
    await first.lab.dispose();

    const second = await labWith(api);
    second.tree.expansion = new ExpansionMemory(memento);
    const [informer2] = second.tree.children(second.tree.roots()[0]);
    assert.deepEqual(second.tree.children(informer2).map((n) => `${second.tree.item(n).label} ${second.tree.item(n).collapsible}`), ['default collapsed', 'prod expanded']);
    await second.lab.dispose();
  });

  it('gives namespaces and objects different icons, and each kind its own', async () => {
    const api = new FakeApi();
    api.put('default', 'a');
    const { lab, tree } = await labWith(api);
    const [informer] = tree.children(tree.roots()[0]);
    const [ns] = tree.children(informer);
    const [obj] = tree.children(ns);
    assert.equal(tree.item(ns!).icon?.id, 'folder');
    assert.equal(tree.item(obj!).icon?.id, 'file-code');
    assert.notEqual(objectIconId('Secret'), objectIconId('ConfigMap'));
    assert.notEqual(objectIconId('Widget'), NAMESPACE_ICON);
    await lab.dispose();
  });
});
