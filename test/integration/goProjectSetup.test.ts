import * as assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';

// "Controller Lab: Set Up This Go Project" on a kubebuilder v4.16 scaffold (the first-hour stage's
// fixture), run on its go.mod as from the Explorer's context menu: the project is wired as
// `controller-lab init go` wires it, with the module the extension carries.

interface Setup {
  changes: { file: string; status: string; text: string }[];
  starterScenario: string;
}

describe('Set Up This Go Project', function () {
  this.timeout(600_000);

  it('wires a kubebuilder project: go.mod, Wrap in main.go, simtest in the suites, the starter scenario', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'a folder is open');
    const fixture = join(folder.uri.fsPath, '..', 'test', 'project', 'fixtures', 'memcached-operator');
    const dir = join(mkdtempSync(join(tmpdir(), 'cl-setup-command-')), 'memcached-operator');
    cpSync(fixture, dir, { recursive: true });
    try {
      const setup = await vscode.commands.executeCommand<Setup>('controllerLab.setUpGoProject', vscode.Uri.file(join(dir, 'go.mod')));
      assert.ok(setup, 'the command answers what it did');
      const changed = setup.changes.filter((c) => c.status === 'changed').map((c) => c.file);
      for (const file of ['go.mod', 'cmd/main.go', 'internal/controller/suite_test.go', 'Makefile', 'controller-lab/scenario.yaml']) assert.ok(changed.includes(file), `${file} changed: ${changed.join(', ')}`);
      assert.match(readFileSync(join(dir, 'go.mod'), 'utf8'), /^replace github\.com\/controller-lab\/controller-lab\/go => \.\/controller-lab\/go$/m);
      assert.match(readFileSync(join(dir, 'cmd', 'main.go'), 'utf8'), /^\tmgr = controllerlab\.Wrap\(mgr\)$/m);
      assert.match(readFileSync(join(dir, 'internal', 'controller', 'suite_test.go'), 'utf8'), /&simtest\.Environment\{/);
      assert.equal(setup.starterScenario, join(dir, 'controller-lab', 'scenario.yaml'));
      // The extension's terminals carry controller-lab, where the suites' simtest finds it.
      if (!process.env.CONTROLLER_LAB) assert.deepEqual(setup.changes.filter((c) => c.file === 'PATH'), [], 'nothing to install by hand for make test');
    } finally {
      rmSync(join(dir, '..'), { recursive: true, force: true });
    }
  });
});
