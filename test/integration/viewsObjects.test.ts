import * as assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ControllerLabApi } from '../../src/extension.ts';
import type { SimClusterApi } from '../../src/sim/simCluster.ts';
import { waitFor } from './waitFor.ts';

// Changing the cluster from the tree inside a real extension host: Edit opens an editable YAML whose
// save applies, Describe shows a kubectl-describe-like text, Delete removes the object. Loading a
// scenario says when it finished; the view's simulated cluster keeps its objects when restarted.

const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' };

describe('Controller Lab views: edit, describe, delete, feedback', function () {
  this.timeout(60_000);
  let api: ControllerLabApi;
  let sim: SimClusterApi;
  const dir = mkdtempSync(join(tmpdir(), 'controller-lab-objects-'));

  before(async () => {
    const ext = vscode.extensions.getExtension<ControllerLabApi>('controller-lab.controller-lab');
    assert.ok(ext);
    api = await ext.activate();
    await vscode.commands.executeCommand('controllerLab.startSimulatedCluster');
    sim = api.services.lab.clusters.get('sim')!.backend!.sim!;
    sim.create(CONFIGMAPS, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'edit-me' }, data: { level: 'info' } });
    await waitFor('edit-me in the cache', () => api.services.lab.findInformer('sim/configmaps')?.informer.entry('default/edit-me'));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('edits an object: saving the YAML applies it to the cluster, and a stale save is refused', async () => {
    await vscode.commands.executeCommand('controllerLab.editObject', { informerId: 'sim/configmaps', key: 'default/edit-me' });
    const editor = await waitFor('the edit document', () => (vscode.window.activeTextEditor?.document.uri.scheme === 'controller-lab-edit' ? vscode.window.activeTextEditor : undefined));
    const doc = editor.document;
    assert.equal(doc.languageId, 'yaml');
    assert.equal(doc.isUntitled, false);
    assert.match(doc.getText(), /level: info/);
    const replace = async (from: string, to: string) => {
      const at = doc.getText().indexOf(from);
      assert.ok(at >= 0, `${from} in ${doc.getText()}`);
      const edit = new vscode.WorkspaceEdit();
      edit.replace(doc.uri, new vscode.Range(doc.positionAt(at), doc.positionAt(at + from.length)), to);
      assert.ok(await vscode.workspace.applyEdit(edit));
    };
    const save = async () => {
      const dirty = doc.isDirty;
      const saved = await doc.save();
      assert.equal(saved, true, `saved (dirty before: ${dirty}, now: ${doc.isDirty}, closed: ${doc.isClosed})`);
    };
    await replace('level: info', 'level: debug');
    await save();
    assert.deepEqual(sim.get(CONFIGMAPS, 'default', 'edit-me').object['data'], { level: 'debug' });
    await waitFor('the tree to see the edit', () => (api.services.lab.findInformer('sim/configmaps')?.informer.entry('default/edit-me')?.object as { data?: { level?: string } })?.data?.level === 'debug');
    // A second save builds on the first (no conflict with our own change).
    await replace('level: debug', 'level: trace');
    await save();
    assert.deepEqual(sim.get(CONFIGMAPS, 'default', 'edit-me').object['data'], { level: 'trace' });

    // Someone else changes it; saving the now stale text must not undo their change.
    const current = sim.get(CONFIGMAPS, 'default', 'edit-me');
    sim.update(CONFIGMAPS, 'default', 'edit-me', { ...structuredClone(current.object), data: { level: 'warn' } } as never);
    await replace('level: trace', 'level: error');
    const before = api.editFileSystem.saves;
    await doc.save().then(undefined, () => false);
    assert.equal(api.editFileSystem.saves, before, 'the save was refused (409 Conflict)');
    assert.deepEqual(sim.get(CONFIGMAPS, 'default', 'edit-me').object['data'], { level: 'warn' });
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('describes an object like kubectl describe', async () => {
    await vscode.commands.executeCommand('controllerLab.describeObject', { informerId: 'sim/configmaps', key: 'default/edit-me' });
    const doc = await waitFor('the describe document', () => (vscode.window.activeTextEditor?.document.uri.scheme === 'controller-lab-describe' ? vscode.window.activeTextEditor.document : undefined));
    assert.match(doc.getText(), /^Name: +edit-me\nNamespace: +default\nKind: +ConfigMap \(v1\)\n/);
    assert.match(doc.getText(), /Data\n====\nlevel:\n----\nwarn/);
  });

  it('deletes an object (confirmed), and the tree drops it', async () => {
    const deleted = await vscode.commands.executeCommand<boolean>('controllerLab.deleteObject', { informerId: 'sim/configmaps', key: 'default/edit-me', confirmed: true });
    assert.equal(deleted, true);
    assert.throws(() => sim.get(CONFIGMAPS, 'default', 'edit-me'), /not found/);
    await waitFor('the cache to drop it', () => api.services.lab.findInformer('sim/configmaps')?.informer.entry('default/edit-me') === undefined);
  });

  it('says when a loaded scenario finished, and how many steps ran', async () => {
    const file = join(dir, 'short.yaml');
    writeFileSync(file, 'steps:\n  - at: 100ms\n    create: { apiVersion: v1, kind: ConfigMap, metadata: { name: from-scenario, namespace: default } }\n  - after: 100ms\n    dropWatches: true\n');
    const loaded = await vscode.commands.executeCommand<string>('controllerLab.loadScenario', vscode.Uri.file(file));
    assert.equal(loaded, 'short.yaml');
    const finished = await api.lastScenario();
    assert.match(finished ?? '', /^Controller Lab: scenario short\.yaml finished after \d+\.\ds \(2 of 2 steps run\)\.$/);
  });

  it('restarts the view’s simulated cluster with its objects (as after a window reload)', async () => {
    sim.create(CONFIGMAPS, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'survives-reload' }, data: {} });
    await vscode.commands.executeCommand('controllerLab.disconnect', { clusterId: 'sim' });
    await vscode.commands.executeCommand('controllerLab.startSimulatedCluster');
    const session = api.services.lab.clusters.get('sim');
    assert.equal(session?.backend?.origin?.kind, 'restored');
    sim = session.backend.sim!;
    assert.equal(sim.get(CONFIGMAPS, 'default', 'survives-reload').object.metadata.name, 'survives-reload');
    const row = api.services.tree.model.roots().find((n) => n.id === 'cluster:sim');
    assert.ok(row);
    assert.match(String(api.services.tree.getTreeItem(row).description), /restored/);
  });
});
