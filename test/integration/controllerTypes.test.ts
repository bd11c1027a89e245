import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';

// "Add Controller Types to Workspace" in a TypeScript project whose tsconfig.json has comments, as
// `tsc --init` writes one: the types are added to its `include` and its comments stay.

describe('Add Controller Types to Workspace', function () {
  this.timeout(60_000);

  it('adds the types to a tsconfig with comments and keeps them', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'controller-lab-types-'));
    const tsconfig = join(folder, 'tsconfig.json');
    writeFileSync(tsconfig, '{\n  // Visit https://aka.ms/tsconfig to read more about this file\n  "compilerOptions": { "strict": true },\n  "include": ["src"],\n}\n');
    const result = await vscode.commands.executeCommand<{ wrote: string[] }>('controllerLab.addControllerTypes', vscode.Uri.file(folder));
    assert.deepEqual(result?.wrote, ['types/controller-lab.d.ts', 'tsconfig.json']);
    const text = readFileSync(tsconfig, 'utf8');
    assert.match(text, /\/\/ Visit https:\/\/aka\.ms\/tsconfig/);
    assert.match(text, /"include": \[\s*"src",\s*"types\/controller-lab\.d\.ts"\s*\]/);
    assert.match(readFileSync(join(folder, 'types', 'controller-lab.d.ts'), 'utf8'), /declare module 'controller-lab'/);
  });
});
