import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GoControllerProcess } from '../../../src/runtime/goControllerProcess.ts';

// A Go controller's own child processes end with it: one left behind sharing its output kept the
// run waiting for that output to close.

/** True while `pid` runs (a zombie, ended but not yet reaped by init, does not count). */
function running(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

test('a Go program that exits leaves none of its child processes running, nor its output open', { skip: process.platform !== 'linux' && 'reads /proc', timeout: 30_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'go-leftovers-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  // Stands in for a built program: starts a child that shares its output, then exits.
  const program = join(dir, 'controller');
  writeFileSync(program, `#!/bin/sh\nsleep 300 &\necho $! > ${join(dir, 'pid')}\nexit 3\n`, { mode: 0o755 });
  const go = new GoControllerProcess();
  t.after(() => go.stop());
  assert.equal(go.useBinary(program), undefined);
  const exited = new Promise<void>((resolve) => go.once('exit', () => resolve()));
  assert.equal(await go.start({ packageDir: dir, kubeconfig: join(dir, 'kubeconfig'), gated: false, mirrorCache: false, connectTimeoutMs: 20_000 }), true);
  await exited;
  const child = (go as unknown as { child: { stdout: NodeJS.ReadableStream & { destroyed: boolean } } }).child;
  const deadline = Date.now() + 3000;
  const pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
  while ((running(pid) || !child.stdout.destroyed) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  assert.equal(running(pid), false, `its child ${pid} still runs`);
  assert.equal(child.stdout.destroyed, true, 'its output is closed');
});
