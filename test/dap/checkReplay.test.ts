import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { fileURLToPath } from 'node:url';
import { launch, scope, startClient, topFrame, valueOf } from './dapClient.ts';

// Replay in Debugger on a TypeScript controller with a planted bug (test/fixtures/plantedBug): the
// session runs without stopping until the finding's perturbation is applied, stops at the first
// reconcile of the key it concerns after it, says what was done, and Continue runs the replayed
// run to its end — the bug the finding found happens again.

const CONTROLLER = fileURLToPath(new URL('../fixtures/plantedBug/controller.ts', import.meta.url));
const SCENARIO = fileURLToPath(new URL('../fixtures/plantedBug/scenario.yaml', import.meta.url));
const CHILD_CREATED = { verb: 'create', kind: 'ConfigMap', namespace: 'default', name: 'web-*', occurrence: 1 };

/** The Debug Console's lines, and the stops, in the order they came. */
function record(dc: DebugClient): { lines: string[]; stops: DebugProtocol.StoppedEvent[]; log: string[] } {
  const seen = { lines: [] as string[], stops: [] as DebugProtocol.StoppedEvent[], log: [] as string[] };
  dc.on('output', (e: DebugProtocol.OutputEvent) => {
    seen.lines.push(e.body.output);
    seen.log.push(`output: ${e.body.output.trim()}`);
  });
  dc.on('stopped', (e: DebugProtocol.StoppedEvent) => {
    seen.stops.push(e);
    seen.log.push(`stopped: ${e.body.description ?? e.body.reason}`);
  });
  return seen;
}

/** The child ConfigMaps in the controller's cache, as the Debug Console evaluates it while running. */
async function children(dc: DebugClient): Promise<number> {
  const r = await dc.evaluateRequest({ expression: 'cache.list("ConfigMap", { labelSelector: "role=child" }).length', context: 'repl' });
  return Number(r.body.result);
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('a crash finding replays: killed after the child is created, it stops at the restarted reconcile of default/web, then makes a second child', async () => {
  const dc = await startClient();
  try {
    const seen = record(dc);
    const stopped = dc.waitForEvent('stopped');
    await launch(dc, { controller: CONTROLLER, scenario: SCENARIO, stopOnEntry: true, checkPlan: { kind: 'crash-after-write', write: CHILD_CREATED } });
    const stop = (await stopped) as DebugProtocol.StoppedEvent;
    assert.equal(stop.body.reason, 'perturbation');
    assert.equal(stop.body.description, 'Replaying a check finding: killed right after `create ConfigMap default/web-*`, then restarted');
    assert.equal(seen.stops.length, 1, 'no stop before the perturbation (not even on entry)');

    // After the perturbation: it was applied, the process restarted, and only then this stop.
    const applied = seen.log.findIndex((l) => /killed right after .* \(at rv \d+\): stopping at the next reconcile of default\/web/.test(l));
    const restarted = seen.log.findIndex((l) => /process was killed \(SIGKILL\) and started again \(host pid \d+\)/.test(l));
    const stopAt = seen.log.findIndex((l) => l.startsWith('stopped:'));
    assert.ok(applied >= 0 && restarted > applied && stopAt > restarted, seen.log.join('\n'));

    const frame = await topFrame(dc, stop.body.threadId ?? 1);
    assert.match(frame.name, /^reconcile ConfigMap default\/web #\d+ · ADDED rv \d+$/);
    // The killed reconcile was #1 or later: the restarted process numbers on.
    assert.ok(frame.id > 1, `seq ${frame.id}`);
    // It sees the child it created before it was killed, and the parent without the annotation.
    assert.equal(await children(dc), 1);
    const ev = await dc.evaluateRequest({ expression: 'String(obj.metadata.annotations?.["example.com/child"])', frameId: frame.id, context: 'repl' });
    assert.equal(ev.body.result, '"undefined"');
    const threads = await dc.threadsRequest();
    assert.deepEqual(threads.body.threads.map((t) => t.name), ['worker 1']);

    // Continue runs to the end: no other stop, and the second child — the finding's bug.
    await dc.continueRequest({ threadId: 1 });
    await until('a second child', async () => ((await children(dc)) === 2 ? true : undefined));
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(await children(dc), 2);
    assert.equal(seen.stops.length, 1, seen.log.join('\n'));
  } finally {
    await dc.stop();
  }
});

test('a stale-state finding replays: the resynced reconcile of default/web stops on a cache older than its own write', async () => {
  const dc = await startClient();
  try {
    const seen = record(dc);
    const stopped = dc.waitForEvent('stopped');
    await launch(dc, { controller: CONTROLLER, scenario: SCENARIO, checkPlan: { kind: 'stale-after-write', write: CHILD_CREATED, lagMs: 1500 } }, { exceptionFilters: [] });
    const stop = (await stopped) as DebugProtocol.StoppedEvent;
    assert.equal(stop.body.reason, 'perturbation');
    assert.match(stop.body.description ?? '', /^Replaying a check finding: its watch events withheld right after `create ConfigMap default\/web-\*` while every key was reconciled on that cache \(at most 1500 ms\)$/);
    const frame = await topFrame(dc, stop.body.threadId ?? 1);
    assert.match(frame.name, /^reconcile ConfigMap default\/web #\d+ · /);
    const applied = seen.lines.findIndex((l) => /withheld .* \(at rv \d+\): stopping at the next reconcile of default\/web/.test(l));
    assert.ok(applied >= 0, seen.log.join('\n'));

    // Its cache is older than the writes the controller made: no child, no annotation yet.
    const request = await scope(dc, frame.id, 'Request');
    assert.ok(valueOf(request, 'cacheResourceVersion'));
    assert.equal(await children(dc), 0);
    const ev = await dc.evaluateRequest({ expression: 'String(obj.metadata.annotations?.["example.com/child"])', frameId: frame.id, context: 'repl' });
    assert.equal(ev.body.result, '"undefined"');

    // The events stay withheld while the debugger is stopped (the plan's window stands still).
    await new Promise((r) => setTimeout(r, 2000));
    assert.equal(await children(dc), 0);

    await dc.continueRequest({ threadId: 1 });
    await until('the withheld events and a second child', async () => ((await children(dc)) >= 2 ? true : undefined));
    assert.ok(seen.lines.some((l) => /warning: stale read: ConfigMap default\/web/.test(l)), 'the stale read is reported');
  } finally {
    await dc.stop();
  }
});

test('a plan that is not one says so and the session does not start', async () => {
  const dc = await startClient();
  try {
    await assert.rejects(launch(dc, { controller: CONTROLLER, scenario: SCENARIO, checkPlan: { kind: 'crash-after-write' } }), /write must be an object/);
  } finally {
    await dc.stop();
  }
});
