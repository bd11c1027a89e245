import * as assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { stringify } from 'yaml';
import type { ControllerLabApi } from '../../src/extension.ts';
import type { TreeNode } from '../../src/vscode/tree/treeNodes.ts';
import { waitFor } from './waitFor.ts';

// A user fixing their cluster settings one mistake at a time: each change of controllerLab.cluster
// or controllerLab.kubeconfig connects again, and the tree shows what the settings say now — the
// failure of the settings before is gone, not a second row of the same name beside it.

describe('Controller Lab views: fixing the cluster settings', function () {
  this.timeout(60_000);
  let api: ControllerLabApi;
  const dir = mkdtempSync(join(tmpdir(), 'controller-lab-settings-'));
  const config = () => vscode.workspace.getConfiguration('controllerLab');
  const tree = () => api.services.tree;
  const item = (node: TreeNode) => tree().getTreeItem(node);
  const rows = (label: string) => tree().getChildren(undefined).filter((n) => item(n).label === label);
  const errorLabel = (row: TreeNode) => {
    const [error] = tree().getChildren(row);
    return error ? String(item(error).label) : undefined;
  };

  before(async () => {
    const ext = vscode.extensions.getExtension<ControllerLabApi>('controller-lab.controller-lab');
    assert.ok(ext);
    api = await ext.activate();
  });

  after(async () => {
    for (const key of ['cluster', 'kubeconfig', 'defaultInformers', 'showSecretValues']) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
  });

  it('shows only the failure of the current settings', async () => {
    const garbage = join(dir, 'garbage');
    writeFileSync(garbage, 'this: is: not: a kubeconfig');
    const unreachable = join(dir, 'unreachable');
    writeFileSync(unreachable, stringify({
      apiVersion: 'v1', kind: 'Config', 'current-context': 'staging',
      clusters: [{ name: 'staging', cluster: { server: 'https://127.0.0.1:1' } }],
      users: [{ name: 'u', user: { token: 'x' } }],
      contexts: [{ name: 'staging', context: { cluster: 'staging', user: 'u' } }],
    }));

    await config().update('kubeconfig', garbage, vscode.ConfigurationTarget.Global);
    await config().update('cluster', 'staging', vscode.ConfigurationTarget.Global);
    await waitFor('the bad kubeconfig row', () => rows('staging').some((r) => errorLabel(r) === 'Bad kubeconfig'));

    await config().update('kubeconfig', unreachable, vscode.ConfigurationTarget.Global);
    await waitFor('the unreachable row', () => rows('staging').some((r) => errorLabel(r) === 'Cluster unreachable'));
    // Give a stale row time to show itself.
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(rows('staging').map(errorLabel), ['Cluster unreachable'], 'one row for the settings as they are');
  });

  // settings.json takes any JSON (VS Code only underlines a wrong type): `"controllerLab.cluster": 123`,
  // a single resource name where a list belongs, the string "false" for a boolean.
  it('takes a setting of the wrong type as its default, not as a crash or as true', async () => {
    await config().update('cluster', 123, vscode.ConfigurationTarget.Global);
    await config().update('defaultInformers', 'configmaps', vscode.ConfigurationTarget.Global);
    await config().update('showSecretValues', 'false', vscode.ConfigurationTarget.Global);
    const session = await api.services.ensureConnected();
    assert.equal(session.id, 'sim', 'the view connects to the simulated cluster, the default');
    const sim = await waitFor('the Simulated cluster row', () => tree().getChildren(undefined).find((n) => item(n).label === 'Simulated cluster'));
    await waitFor('the default informers', () => tree().getChildren(sim).filter((n) => /^(configmaps|deployments\.apps)$/.test(String(item(n).label))).length === 2);

    const id = await vscode.commands.executeCommand<string>('controllerLab.watchResource', { resource: 'secrets', namespace: '' });
    await api.services.lab.findInformer(id)?.informer.informer.waitForSync();
    await vscode.commands.executeCommand('controllerLab.openObject', { informerId: id, key: 'demo/payments-api' });
    const doc = await waitFor('the Secret document', () => vscode.window.activeTextEditor?.document.uri.path.endsWith('payments-api.yaml') ? vscode.window.activeTextEditor.document : undefined);
    assert.match(doc.getText(), /apiKey: "<redacted: 18 bytes>"/, 'the string "false" does not show Secret values');
  });
});
