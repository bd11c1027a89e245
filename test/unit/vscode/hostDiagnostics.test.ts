import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CPU_PROFILE_DIR_VARIABLE, DIAGNOSTICS_FILE_VARIABLE, startHostDiagnostics, type HostSample } from '../../../src/vscode/hostDiagnostics.ts';

// The extension host's diagnostics file (what bench/extensionHostPods.mjs reads): a stall of the
// event loop shows up in the next sample, with the host's pid and memory; off without the variable.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('a 150 ms stall of the event loop is in the samples, with the pid and memory; the file is private', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-host-diag-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'samples.jsonl');
  const stop = startHostDiagnostics({ [DIAGNOSTICS_FILE_VARIABLE]: file });
  try {
    await sleep(300);
    const until = Date.now() + 150;
    while (Date.now() < until) {
      // the stall
    }
    await sleep(600);
  } finally {
    stop();
  }
  const samples = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as HostSample);
  assert.ok(samples.length >= 3, `${samples.length} samples`);
  const worst = Math.max(...samples.map((s) => s.loopMaxMs));
  assert.ok(worst >= 120, `longest delay ${worst} ms`);
  assert.ok(samples.every((s) => s.pid === process.pid && s.rssBytes > 0 && s.heapUsedBytes > 0));
  assert.equal(statSync(file).mode & 0o777, 0o600);
  const lines = samples.length;
  await sleep(400);
  assert.equal(readFileSync(file, 'utf8').trim().split('\n').length, lines, 'no samples after stop');
});


test('with a profile directory, CPU profiles of the host in pieces show what a stall was made of', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-host-prof-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const stop = startHostDiagnostics({ [DIAGNOSTICS_FILE_VARIABLE]: join(dir, 'samples.jsonl'), [CPU_PROFILE_DIR_VARIABLE]: dir }, 300);
  function stallingForAWhile(): void {
    const until = Date.now() + 150;
    while (Date.now() < until) {
      // the stall
    }
  }
  try {
    await sleep(50);
    stallingForAWhile();
    await sleep(700);
  } finally {
    stop();
  }
  const pieces = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  assert.ok(pieces.length >= 1, `${pieces.length} profiles`);
  const functions = pieces.flatMap((f) => (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { nodes: { callFrame: { functionName: string } }[] }).nodes.map((n) => n.callFrame.functionName));
  assert.ok(functions.includes('stallingForAWhile'), 'the stalling function is in a profile');
  assert.equal(statSync(join(dir, pieces[0]!)).mode & 0o777, 0o600);
});
