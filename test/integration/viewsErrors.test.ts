import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { parse, stringify } from 'yaml';
import type { ControllerLabApi } from '../../src/extension.ts';
import type { TreeNode } from '../../src/vscode/tree/treeNodes.ts';
import { waitFor } from './waitFor.ts';

// Bad input in a real extension host: each failure is an error row in the tree that says why, the
// command reports instead of throwing, and the simulated cluster keeps working beside it.


describe('Controller Lab views: bad input', function () {
  this.timeout(60_000);
  let api: ControllerLabApi;
  const dir = mkdtempSync(join(tmpdir(), 'controller-lab-bad-'));
  const tree = () => api.services.tree;
  const item = (node: TreeNode) => tree().getTreeItem(node);
  const findChild = (parent: TreeNode | undefined, label: string) => tree().getChildren(parent).find((n) => item(n).label === label);

  before(async () => {
    const ext = vscode.extensions.getExtension<ControllerLabApi>('controller-lab.controller-lab');
    assert.ok(ext);
    api = await ext.activate();
    await vscode.commands.executeCommand('controllerLab.startSimulatedCluster');
  });

  async function connectExpectingFailure(file: string, context: string): Promise<TreeNode> {
    const result = await vscode.commands.executeCommand('controllerLab.connect', { kind: 'kubeconfig', kubeconfig: file, context });
    assert.equal(result, undefined, 'the command reports the failure instead of throwing');
    const cluster = await waitFor(`cluster row ${context}`, () => findChild(undefined, context));
    assert.equal(item(cluster).description, 'failed');
    const [error] = tree().getChildren(cluster);
    assert.ok(error);
    assert.equal(item(error).contextValue, 'error');
    return error;
  }

  it('says a cluster is unreachable', async () => {
    const file = join(dir, 'unreachable');
    writeFileSync(file, stringify({
      apiVersion: 'v1', kind: 'Config', 'current-context': 'down',
      clusters: [{ name: 'down', cluster: { server: 'https://127.0.0.1:1' } }],
      users: [{ name: 'u', user: { token: 'x' } }],
      contexts: [{ name: 'down', context: { cluster: 'down', user: 'u' } }],
    }));
    const error = await connectExpectingFailure(file, 'down');
    assert.equal(item(error).label, 'Cluster unreachable');
    assert.match(String(item(error).description), /connection refused/);
  });

  it('says a token was refused (401)', async () => {
    const simKubeconfig = api.services.lab.clusters.get('sim')?.backend?.kubeconfigPath;
    assert.ok(simKubeconfig);
    const config = parse(readFileSync(simKubeconfig, 'utf8')) as { users: { user: { token: string } }[]; contexts: { name: string }[]; 'current-context': string };
    config.users[0]!.user.token = 'wrong-token';
    config.contexts[0]!.name = 'wrong-token';
    config['current-context'] = 'wrong-token';
    const file = join(dir, 'unauthorized');
    writeFileSync(file, stringify(config));
    const error = await connectExpectingFailure(file, 'wrong-token');
    assert.equal(item(error).label, 'Unauthorized (401)');
  });

  it('says a kubeconfig is broken', async () => {
    const file = join(dir, 'garbage');
    writeFileSync(file, 'this: is: not: a kubeconfig');
    const error = await connectExpectingFailure(file, 'garbage');
    assert.equal(item(error).label, 'Bad kubeconfig');
  });

  it('keeps the simulated cluster working beside the failures', async () => {
    const sim = findChild(undefined, 'Simulated cluster');
    assert.ok(sim);
    assert.match(String(item(sim).description), /synced/);
    const configmaps = findChild(sim, 'configmaps');
    assert.ok(configmaps);
    assert.match(String(item(configmaps).description), /synced/);
  });

  it('removes a failed cluster on disconnect', async () => {
    await vscode.commands.executeCommand('controllerLab.disconnect', { clusterId: api.services.lab.clusters.get([...api.services.lab.clusters.keys()].find((k) => k.endsWith(':down'))!)!.id });
    await waitFor('the failed cluster to go', () => findChild(undefined, 'down') === undefined);
  });
});
