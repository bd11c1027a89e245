import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ControllerLabApi } from '../../src/extension.ts';
import { waitFor } from './waitFor.ts';

// The extension as VS Code sees it: it activates, its view container and views show, and every
// command the manifest declares is registered (read from the manifest, so this grows with it).

const EXTENSION_ID = 'controller-lab.controller-lab';
/** An operating system command (ESC ] … BEL), as VS Code's shell integration writes them. */
const OSC_SEQUENCE = new RegExp(`${String.fromCharCode(27)}\\][^${String.fromCharCode(7)}]*${String.fromCharCode(7)}`, 'g');

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

  it('puts its bundled controller-lab command on the PATH of new terminals and names it in $CONTROLLER_LAB (for simtest)', async function () {
    this.timeout(60_000);
    const api = (await vscode.extensions.getExtension(EXTENSION_ID)!.activate()) as ControllerLabApi;
    await api.whenCliOffered();
    const out = join(tmpdir(), `controller-lab-terminal-${process.pid}-${Date.now()}`);
    const terminal = vscode.window.createTerminal({ name: 'controller-lab on the PATH' });
    try {
      // Written aside and renamed: the file appears whole.
      terminal.sendText(`{ controller-lab --version; echo "CONTROLLER_LAB=$CONTROLLER_LAB"; $CONTROLLER_LAB --help | head -n 1; } > '${out}.part' 2>&1; mv '${out}.part' '${out}'`);
      await waitFor('the terminal to run controller-lab', () => existsSync(out), 45_000);
      // The shell's integration hooks (VS Code's OSC 633 sequences) may write into the same file: read past them.
      const text = readFileSync(out, 'utf8').replace(OSC_SEQUENCE, '');
      assert.match(text, /^controller-lab \d+\.\d+\.\d+ \(node v\d+/m, text);
      assert.match(text, /^CONTROLLER_LAB=\/.+\/bin\/controller-lab$/m, text);
      assert.match(text, /^usage: controller-lab <command>/m, text);
    } finally {
      terminal.dispose();
      rmSync(out, { force: true });
    }
  });
});

