import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { fileURLToPath } from 'node:url';
import { launch, startClient, topFrame } from './dapClient.ts';
import { PLANTED_BUG_PROGRAM, writeGoProgram } from '../unit/runtime/support/goPrograms.ts';

// Replay in Debugger on a Go program with the planted bug (goPrograms.ts): the program killed
// (kill -9) right after it created the child and started again from its built binary inside the
// same session, numbering its reconciles on; the stop comes at its first reconcile of default/web;
// Continue runs on and the second child appears. Then a stale-state plan on the same program.

const SCENARIO = fileURLToPath(new URL('../fixtures/plantedBug/scenario.yaml', import.meta.url));
const CHILD_CREATED = { verb: 'create', kind: 'ConfigMap', namespace: 'default', name: 'web-*', occurrence: 1 };

async function goClient(): Promise<DebugClient> {
  const dc = await startClient();
  // The first launch builds the program (a few seconds with a warm Go build cache).
  dc.defaultTimeout = 180_000;
  return dc;
}

async function children(dc: DebugClient): Promise<number> {
  const r = await dc.evaluateRequest({ expression: 'cache.list("ConfigMap", { labelSelector: "role=child" }).length', context: 'repl' });
  return Number(r.body.result);
}

async function until(what: string, ready: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

test('Go: a crash finding replays — the program restarts in the session, stops at its reconcile of default/web, and makes a second child', { timeout: 600_000 }, async () => {
  const program = writeGoProgram(PLANTED_BUG_PROGRAM);
  const dc = await goClient();
  try {
    const lines: string[] = [];
    dc.on('output', (e: DebugProtocol.OutputEvent) => lines.push(e.body.output));
    const stops: DebugProtocol.StoppedEvent[] = [];
    dc.on('stopped', (e: DebugProtocol.StoppedEvent) => stops.push(e));
    const stopped = dc.waitForEvent('stopped');
    await launch(dc, { program: program.dir, scenario: SCENARIO, checkPlan: { kind: 'crash-after-write', write: CHILD_CREATED } }, { exceptionFilters: [] });
    const stop = (await stopped) as DebugProtocol.StoppedEvent;
    assert.equal(stop.body.reason, 'perturbation');
    assert.equal(stop.body.description, 'Replaying a check finding: killed right after `create ConfigMap default/web-*`, then restarted');
    const text = lines.join('');
    assert.match(text, /killed right after .* \(at rv \d+\): stopping at the next reconcile of default\/web/);
    assert.match(text, /process was killed \(SIGKILL\) and started again \(Go process pid \d+\)/);

    const frame = await topFrame(dc, stop.body.threadId ?? 1);
    assert.match(frame.name, /^reconcile ConfigMap default\/web #\d+ · ADDED rv \d+$/);
    // Go numbers reconciles from 1 in each process; told its predecessor's last seq, it goes on.
    assert.ok(frame.id > 1, `seq ${frame.id}`);
    const threads = await dc.threadsRequest();
    assert.deepEqual(threads.body.threads.map((t) => t.name), ['worker 1']);

    await dc.continueRequest({ threadId: 1 });
    await until('a second child', async () => (await children(dc)) === 2);
    assert.equal(stops.length, 1);
  } finally {
    await dc.stop();
    program.dispose();
  }
});

test('Go: a stale-state finding replays — the resynced reconcile of default/web stops before it sees its own writes', { timeout: 600_000 }, async () => {
  const program = writeGoProgram(PLANTED_BUG_PROGRAM);
  const dc = await goClient();
  try {
    const stopped = dc.waitForEvent('stopped');
    await launch(dc, { program: program.dir, scenario: SCENARIO, checkPlan: { kind: 'stale-after-write', write: CHILD_CREATED, lagMs: 1500 } }, { exceptionFilters: [] });
    const stop = (await stopped) as DebugProtocol.StoppedEvent;
    assert.equal(stop.body.reason, 'perturbation');
    assert.match(stop.body.description ?? '', /^Replaying a check finding: its watch events withheld right after `create ConfigMap default\/web-\*` while every key was reconciled on that cache/);
    const frame = await topFrame(dc, stop.body.threadId ?? 1);
    assert.match(frame.name, /^reconcile ConfigMap default\/web #\d+ · /);
    assert.equal(await children(dc), 0, 'the child is not in its cache yet');

    await dc.continueRequest({ threadId: 1 });
    await until('a second child', async () => (await children(dc)) >= 2);
  } finally {
    await dc.stop();
    program.dispose();
  }
});
