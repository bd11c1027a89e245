import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

// The extension as VS Code sees it: it activates, its view container and views show, and every
// command the manifest declares is registered (read from the manifest, so this grows with it).

const EXTENSION_ID = 'controller-lab.controller-lab';

interface Manifest {
  contributes: {
    commands: { command: string }[];
    views: Record<string, { id: string }[]>;
  };
}

describe('activation', () => {
  it('activates the extension', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is installed`);
    await ext.activate();
    assert.equal(ext.isActive, true);
  });

  it('shows the Controller Lab view container and its views', async () => {
    await vscode.commands.executeCommand('workbench.view.extension.controllerLab');
    const manifest = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as Manifest;
    const views = manifest.contributes.views['controllerLab'] ?? [];
    assert.ok(views.length > 0, 'the container declares views');
    const all = await vscode.commands.getCommands(true);
    for (const view of views) {
      // VS Code registers a focus command for every view it has created.
      assert.ok(all.includes(`${view.id}.focus`), `view ${view.id} exists`);
      await vscode.commands.executeCommand(`${view.id}.focus`);
    }
  });

  it('registers every command the manifest declares', async () => {
    const manifest = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as Manifest;
    const declared = manifest.contributes.commands.map((c) => c.command);
    assert.ok(declared.length > 0);
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = declared.filter((c) => !registered.has(c));
    assert.deepEqual(missing, [], `declared but not registered: ${missing.join(', ')}`);
  });
});
