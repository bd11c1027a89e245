import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { launch, startClient } from './dapClient.ts';

// A TypeScript controller whose top-level code awaits something that never settles neither fails
// nor starts: the debug session says so in the Debug Console instead of showing nothing at all.

test('a controller module that never finishes loading is named in the Debug Console within 20 s', { timeout: 60_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-dap-never-loads-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const controller = join(dir, 'controller.ts');
  writeFileSync(controller, `import { defineController } from 'controller-lab';
await new Promise(() => {});
export default defineController({ name: 'stuck', for: { apiVersion: 'v1', kind: 'ConfigMap' }, reconcile() {} });
`);
  const dc = await startClient();
  try {
    const said = new Promise<DebugProtocol.OutputEvent>((resolve) => {
      dc.on('output', (e: DebugProtocol.OutputEvent) => {
        if (/has not started/.test(e.body.output)) resolve(e);
      });
    });
    const started = Date.now();
    await launch(dc, { controller });
    const notice = await Promise.race([said, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 20_000))]);
    assert.ok(notice, 'nothing said within 20 s');
    assert.equal(notice.body.category, 'important');
    assert.equal(notice.body.output, 'The controller has not started after 15 s: the controller module has not finished loading; does its top-level code await something that never settles?\n');
    assert.ok(Date.now() - started < 20_000);
  } finally {
    await dc.stop();
  }
});
