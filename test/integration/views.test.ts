import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ControllerLabApi } from '../../src/extension.ts';
import type { SimClusterApi } from '../../src/sim/simCluster.ts';
import type { TreeNode } from '../../src/vscode/tree/treeNodes.ts';
import { waitFor } from './waitFor.ts';

// The views inside a real extension host: the simulated cluster started by command, informers
// started by command, writes through the sim, and what the tree, documents, diffs, timeline and
// status bar then show.

const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' };


describe('Controller Lab views', function () {
  this.timeout(60_000);
  let api: ControllerLabApi;
  let sim: SimClusterApi;

  const tree = () => api.services.tree;
  const labelOf = (node: TreeNode) => tree().getTreeItem(node).label as string;
  const descriptionOf = (node: TreeNode) => String(tree().getTreeItem(node).description ?? '');
  const findChild = (parent: TreeNode | undefined, label: string) => tree().getChildren(parent).find((n) => labelOf(n) === label);

  /** The selection reaches the extension asynchronously from the renderer; reveal again if it got lost. */
  async function confirmSelected(node: TreeNode, key: string): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        await waitFor(`selection of ${key}`, () => api.services.treeView.selection[0] === node, 3000);
        return;
      } catch {
        await tree().revealObject(api.services.treeView, 'sim/configmaps', key);
      }
    }
    assert.fail(`${key} never became selected`);
  }

  before(async () => {
    const ext = vscode.extensions.getExtension<ControllerLabApi>('controller-lab.controller-lab');
    assert.ok(ext, 'extension is installed');
    api = await ext.activate();
    const clusterId = await vscode.commands.executeCommand<string>('controllerLab.startSimulatedCluster');
    assert.equal(clusterId, 'sim');
    const session = api.services.lab.clusters.get('sim');
    assert.ok(session?.backend?.sim, 'the simulated cluster runs');
    sim = session.backend.sim;
  });

  it('starts the simulated cluster over HTTPS with the default informers synced', async () => {
    const cluster = await waitFor('cluster node', () => findChild(undefined, 'Simulated cluster'));
    assert.match(api.services.lab.clusters.get('sim')?.server ?? '', /^https:\/\/127\.0\.0\.1:\d+$/);
    console.log(`activate() took ${api.activationMs.toFixed(0)} ms`);
    const configmaps = await waitFor('configmaps synced', () => {
      const node = findChild(cluster, 'configmaps');
      return node && descriptionOf(node).includes('synced') ? node : undefined;
    });
    assert.match(descriptionOf(configmaps), /^all namespaces · synced · rv \d+ · \d+ objects/);
    assert.ok(findChild(cluster, 'deployments.apps'), 'deployments informer');
    const clients = findChild(cluster, 'Clients');
    assert.ok(clients, 'the Clients node lists who talks to the sim');
    const views = tree().getChildren(clients).map(labelOf);
    assert.ok(views.includes('controller-lab-vscode'), `clients: ${views.join(', ')}`);
  });

  it('shows a write through the sim in the tree with its new resourceVersion', async () => {
    const created = sim.create(CONFIGMAPS, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'it-created' }, data: { v: '1' } });
    const informerId = 'sim/configmaps';
    const node = await waitFor('object node', () => tree().model.objectNode(informerId, 'default/it-created'));
    assert.equal(labelOf(node), 'it-created');
    assert.equal(descriptionOf(node), `rv ${created.resourceVersion} · ADDED 0s ago`);
    const updated = sim.update(CONFIGMAPS, 'default', 'it-created', { ...structuredClone(created.object), data: { v: '2' } } as never);
    await waitFor('MODIFIED rv', () => descriptionOf(node).startsWith(`rv ${updated.resourceVersion} · MODIFIED`));
    const parent = tree().getParent(node);
    assert.equal(parent && labelOf(parent), 'default');
  });

  it('watches a resource via the command, with scope and selector', async () => {
    sim.create(CONFIGMAPS, 'demo', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'labelled', labels: { tier: 'gold' } }, data: {} });
    const id = await vscode.commands.executeCommand<string>('controllerLab.watchResource', { resource: 'cm', namespace: 'demo', labelSelector: 'tier=gold', clusterId: 'sim' });
    const failures = [...(api.services.lab.clusters.get('sim')?.informerFailures ?? [])].map(([k, f]) => `${k}: ${f.message}`);
    assert.equal(id, 'sim/configmaps@demo[tier=gold]', `failures: ${failures.join('; ')}; clusters: ${[...api.services.lab.clusters.keys()].join(', ')}`);
    const informer = api.services.lab.findInformer(id)?.informer;
    assert.ok(informer);
    await informer.informer.waitForSync();
    const node = tree().model.informerNode(id);
    assert.ok(node);
    assert.deepEqual(tree().getChildren(node).map(labelOf), ['labelled'], 'a single-namespace informer lists objects directly, filtered');
  });

  it('opens a live read-only YAML document that follows the object', async () => {
    const editor = await vscode.commands.executeCommand<unknown>('controllerLab.openObject', { informerId: 'sim/configmaps', key: 'default/it-created' });
    void editor;
    const doc = await waitFor('document', () => vscode.window.activeTextEditor?.document.uri.scheme === 'controller-lab' ? vscode.window.activeTextEditor.document : undefined);
    assert.equal(doc.languageId, 'yaml');
    assert.match(doc.getText(), /v: "2"/);
    const current = sim.get(CONFIGMAPS, 'default', 'it-created');
    sim.update(CONFIGMAPS, 'default', 'it-created', { ...structuredClone(current.object), data: { v: '3' } } as never);
    await waitFor('document to update', () => /v: "3"/.test(doc.getText()));
  });

  it('compares an object with its previous version in a diff editor', async () => {
    const shown = await vscode.commands.executeCommand<boolean>('controllerLab.compareWithPrevious', { informerId: 'sim/configmaps', key: 'default/it-created' });
    assert.equal(shown, true);
    const tab = await waitFor('diff tab', () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputTextDiff ? input : undefined;
    });
    assert.match(tab.original.query, /rv=\d+/);
    assert.match(tab.modified.query, /rv=\d+/);
    const left = await vscode.workspace.openTextDocument(tab.original);
    const right = await vscode.workspace.openTextDocument(tab.modified);
    assert.match(left.getText(), /v: "2"/);
    assert.match(right.getText(), /v: "3"/);
  });

  it('redacts Secret values in object documents', async () => {
    const id = await vscode.commands.executeCommand<string>('controllerLab.watchResource', { resource: 'secrets', namespace: '' });
    const informer = api.services.lab.findInformer(id)?.informer;
    assert.ok(informer);
    await informer.informer.waitForSync();
    await vscode.commands.executeCommand('controllerLab.openObject', { informerId: id, key: 'demo/payments-api' });
    const doc = await waitFor('secret document', () => vscode.window.activeTextEditor?.document.uri.path.endsWith('payments-api.yaml') ? vscode.window.activeTextEditor.document : undefined);
    assert.match(doc.getText(), /apiKey: "<redacted: 18 bytes>"/);
    assert.doesNotMatch(doc.getText(), /c2tfdGVzdF/);
  });

  it('shows an unknown resource as an error node and keeps the rest working', async () => {
    const result = await vscode.commands.executeCommand('controllerLab.watchResource', { resource: 'nosuchthings' });
    assert.equal(result, undefined, 'the command reports instead of throwing');
    const cluster = await waitFor('cluster node', () => findChild(undefined, 'Simulated cluster'));
    const error = await waitFor('error node', () => findChild(cluster, 'nosuchthings'));
    assert.equal(tree().getTreeItem(error).contextValue, 'error');
    assert.match(descriptionOf(error), /doesn't have a resource type "nosuchthings"/);
    assert.ok(findChild(cluster, 'configmaps'), 'other informers are still there');
  });

  it('opens the timeline, which receives the events after its ready handshake', async () => {
    await vscode.commands.executeCommand('controllerLab.showTimeline');
    const panel = api.timelinePanel();
    assert.ok(panel, 'panel open');
    await waitFor('the webview to say ready and get the events', () => panel.posted > 0, 20_000);
    const before = panel.posted;
    sim.create(CONFIGMAPS, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'timeline-1' }, data: {} });
    await waitFor('a batched append', () => panel.posted > before);
    assert.ok(api.services.lab.timeline.events.all().some((e) => e.name === 'timeline-1' && e.type === 'ADDED'));
  });

  it('summarises the cluster in the status bar', async () => {
    await waitFor('status text', () => /Simulated cluster · \d+\/\d+ synced · [\d.]+ ev\/s/.test(api.statusBar.text));
  });

  it('stays responsive under 1,000 watch events per second', async () => {
    sim.create({ group: '', version: 'v1', resource: 'namespaces' }, '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'load' } });
    const names = Array.from({ length: 100 }, (_, i) => `load-${i}`);
    for (const name of names) sim.create(CONFIGMAPS, 'load', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'load' }, data: { n: '0' } } as never);
    // 100 of the test's and the namespace's CA ConfigMap (the sim's controller manager adds it).
    const ns = await waitFor('load namespace', () => api.services.lab.findInformer('sim/configmaps')?.informer.countIn('load') === 101);
    void ns;
    const flushesBefore = api.services.tree.flushCount;
    let lagMax = 0;
    let last = performance.now();
    const lagTimer = setInterval(() => {
      const now = performance.now();
      lagMax = Math.max(lagMax, now - last - 10);
      last = now;
    }, 10);
    let n = 0;
    const started = performance.now();
    await new Promise<void>((resolve) => {
      const writer = setInterval(() => {
        // Catch up to 1,000 writes per elapsed second (timers fire late under load).
        const due = Math.floor(performance.now() - started);
        while (n < due) {
          const name = names[n % names.length]!;
          sim.patch(CONFIGMAPS, 'load', name, 'merge', { data: { n: String(n) } });
          n++;
        }
        if (performance.now() - started >= 3000) {
          clearInterval(writer);
          resolve();
        }
      }, 10);
    });
    const seconds = (performance.now() - started) / 1000;
    const last1 = names[(n - 1) % names.length]!;
    await waitFor('the last write in the cache', () => api.services.lab.findInformer('sim/configmaps')?.informer.entry(`load/${last1}`)?.object.metadata.resourceVersion === String(sim.get(CONFIGMAPS, 'load', last1).resourceVersion));
    clearInterval(lagTimer);
    const flushes = api.services.tree.flushCount - flushesBefore;
    console.log(`load: ${n} writes in ${seconds.toFixed(1)} s (${(n / seconds).toFixed(0)}/s); tree refreshes ${flushes} (${(flushes / seconds).toFixed(1)}/s); max event-loop lag ${lagMax.toFixed(0)} ms`);
    assert.ok(n / seconds > 900, `only ${(n / seconds).toFixed(0)} writes/s`);
    assert.ok(flushes / seconds <= 6, `${flushes} refreshes in ${seconds} s`);
    assert.ok(lagMax < 500, `event loop stalled ${lagMax.toFixed(0)} ms`);
  });

  it('expands and reveals in a namespace of 10,000 objects quickly', async () => {
    sim.create({ group: '', version: 'v1', resource: 'namespaces' }, '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bulk' } });
    const t0 = performance.now();
    for (let i = 0; i < 10_000; i++) {
      sim.create(CONFIGMAPS, 'bulk', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${String(i).padStart(5, '0')}`, namespace: 'bulk' }, data: { i: String(i) } } as never);
    }
    // 10,000 of the test's and the namespace's CA ConfigMap.
    await waitFor('10k objects cached', () => api.services.lab.findInformer('sim/configmaps')?.informer.countIn('bulk') === 10_001, 30_000);
    const ingest = performance.now() - t0;
    const informerNode = tree().model.informerNode('sim/configmaps');
    assert.ok(informerNode);
    const bulk = tree().getChildren(informerNode).find((n) => labelOf(n) === 'bulk');
    assert.ok(bulk);
    const t1 = performance.now();
    const children = tree().getChildren(bulk);
    for (const child of children) tree().getTreeItem(child);
    const expand = performance.now() - t1;
    assert.equal(children.length, 1001, 'a page of 1,000 and a "Show more" row');
    await vscode.commands.executeCommand('workbench.view.extension.controllerLab');
    await waitFor('tree view visible', () => api.services.treeView.visible);
    const t2 = performance.now();
    const first = await tree().revealObject(api.services.treeView, 'sim/configmaps', 'bulk/cm-00500');
    assert.ok(first);
    const reveal = performance.now() - t2;
    await confirmSelected(first, 'bulk/cm-00500');
    const t2b = performance.now();
    await tree().revealObject(api.services.treeView, 'sim/configmaps', 'bulk/cm-00010');
    const revealAgain = performance.now() - t2b;
    const t3 = performance.now();
    const lastOne = await tree().revealObject(api.services.treeView, 'sim/configmaps', 'bulk/cm-09999');
    assert.ok(lastOne);
    const revealAll = performance.now() - t3;
    await confirmSelected(lastOne, 'bulk/cm-09999');
    console.log(`10k namespace: ingest ${ingest.toFixed(0)} ms; getChildren + TreeItems (first page of 1,000) ${expand.toFixed(0)} ms; reveal on the first page ${reveal.toFixed(0)} ms (first time the view shows), then ${revealAgain.toFixed(0)} ms; reveal of the 10,000th (all pages) ${revealAll.toFixed(0)} ms`);
    assert.ok(expand < 1000, `expand took ${expand.toFixed(0)} ms`);
  });

  it('stops an informer and removes it from the tree', async () => {
    await vscode.commands.executeCommand('controllerLab.stopInformer', 'sim/configmaps@demo[tier=gold]');
    const cluster = await waitFor('cluster node', () => findChild(undefined, 'Simulated cluster'));
    assert.equal(findChild(cluster, 'configmaps@demo[tier=gold]'), undefined);
  });
});
