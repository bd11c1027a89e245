import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ControllerLabApi } from '../../src/extension.ts';
import type { SimClusterApi } from '../../src/sim/simCluster.ts';
import type { TreeNode } from '../../src/views/tree/treeNodes.ts';

// The views inside a real extension host: the simulated cluster started by command, informers
// started by command, writes through the sim, and what the tree, documents, diffs, timeline and
// status bar then show.

const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' };

async function waitFor<T>(what: string, probe: () => T | undefined | false, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('Controller Lab views', function () {
  this.timeout(60_000);
  let api: ControllerLabApi;
  let sim: SimClusterApi;

  const tree = () => api.services.tree;
  const labelOf = (node: TreeNode) => tree().getTreeItem(node).label as string;
  const descriptionOf = (node: TreeNode) => String(tree().getTreeItem(node).description ?? '');
  const findChild = (parent: TreeNode | undefined, label: string) => tree().getChildren(parent).find((n) => labelOf(n) === label);

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
    sim.create(CONFIGMAPS, 'shop', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'labelled', labels: { tier: 'gold' } }, data: {} });
    const id = await vscode.commands.executeCommand<string>('controllerLab.watchResource', { resource: 'cm', namespace: 'shop', labelSelector: 'tier=gold' });
    assert.equal(id, 'sim/configmaps@shop[tier=gold]');
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
    await vscode.commands.executeCommand('controllerLab.openObject', { informerId: id, key: 'shop/payments-api' });
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
    assert.ok(api.services.lab.ring.all().some((e) => e.name === 'timeline-1' && e.type === 'ADDED'));
  });

  it('summarises the cluster in the status bar', async () => {
    await waitFor('status text', () => /Simulated cluster · \d+\/\d+ synced · [\d.]+ ev\/s/.test(api.statusBar.text));
  });

  it('stops an informer and removes it from the tree', async () => {
    await vscode.commands.executeCommand('controllerLab.stopInformer', 'sim/configmaps@shop[tier=gold]');
    const cluster = await waitFor('cluster node', () => findChild(undefined, 'Simulated cluster'));
    assert.equal(findChild(cluster, 'configmaps@shop[tier=gold]'), undefined);
  });
});
