import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { isAlive, startClient } from './dapClient.ts';
import { GO_EXAMPLE, GO_EXAMPLE_SCENARIO } from '../unit/runtime/support/goPrograms.ts';

// Go line breakpoints through Delve in the reconcile debugger's own session (the standalone
// adapter, no Go extension): "lineBreakpoints": true builds the program for Delve and runs it
// under dlv; a reconcile breakpoint stops before the reconcile as always, and a breakpoint on a
// line of Reconcile stops inside it on a goroutine thread with Delve's frames and variables.

const MAIN_GO = join(GO_EXAMPLE, 'main.go');
const LABEL_LINE = readFileSync(MAIN_GO, 'utf8').split('\n').findIndex((l) => l.includes('src.Labels["mirror"] != "source"')) + 1;

function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((t) => readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
  } catch {
    return [];
  }
}

test('Go: a .go line breakpoint in Reconcile hits through Delve, and the reconcile breakpoint still stops before it', { timeout: 600_000 }, async () => {
  const dc = await startClient();
  dc.defaultTimeout = 180_000;
  let pid = 0;
  const printed: string[] = [];
  dc.on('output', (e: DebugProtocol.OutputEvent) => {
    printed.push(e.body.output);
    const m = /Go process pid (\d+)/.exec(e.body.output);
    if (m) pid = Number(m[1]);
  });
  try {
    const initialized = dc.waitForEvent('initialized');
    await dc.initializeRequest({ adapterID: 'controller-lab', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' });
    const launched = dc.launchRequest({ cluster: 'sim', program: GO_EXAMPLE, scenario: GO_EXAMPLE_SCENARIO, lineBreakpoints: true } as DebugProtocol.LaunchRequestArguments);
    await initialized;
    await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'ConfigMap default/app-config' }] });
    const lines = await dc.setBreakpointsRequest({ source: { path: MAIN_GO }, breakpoints: [{ line: LABEL_LINE, condition: 'req.Name == "app-config"' }] });
    assert.equal(lines.body.breakpoints[0]?.verified, false, 'waits for Delve');
    const placed = dc.waitForEvent('breakpoint');
    await dc.configurationDoneRequest();
    const firstStop = dc.waitForEvent('stopped');
    await launched;
    assert.equal(((await placed) as DebugProtocol.BreakpointEvent).body.breakpoint.verified, true);
    // The build for Delve can be a long one: the Debug Console says why while the user waits.
    assert.ok(printed.some((o) => /^Building .* with Delve's -gcflags=all=-N -l: the first such build compiles every package again/.test(o)), printed.join(''));

    // The reconcile-level stop, before app-config's reconcile runs.
    const reconcileStop = (await firstStop) as DebugProtocol.StoppedEvent;
    assert.equal(reconcileStop.body.reason, 'breakpoint');
    assert.equal(reconcileStop.body.threadId, 1);
    // The Debug Console shows the program's output (controller-runtime's log lines), not dlv's.
    const output = printed.join('');
    assert.match(output, /"msg":"Starting workers"/, output);
    assert.doesNotMatch(output, /API server listening at|Type 'dlv help'|layer=rpc/, output);
    const goStop = dc.waitForEvent('stopped');
    await dc.continueRequest({ threadId: 1 });

    // Inside Reconcile, stopped by Delve on a goroutine thread.
    const inside = (await goStop) as DebugProtocol.StoppedEvent;
    assert.equal(inside.body.reason, 'breakpoint');
    const goThread = inside.body.threadId ?? 0;
    assert.ok(goThread > 1000, `a goroutine thread: ${goThread}`);
    const threads = (await dc.threadsRequest()).body.threads;
    assert.ok(threads.some((t) => t.id === goThread && /^goroutine \d+ \(Go\)$/.test(t.name)), JSON.stringify(threads));
    const frames = (await dc.stackTraceRequest({ threadId: goThread })).body.stackFrames;
    assert.match(frames[0]?.name ?? '', /mirrorReconciler\)\.Reconcile$/);
    assert.equal(frames[0]?.source?.path, MAIN_GO);
    assert.equal(frames[0]?.line, LABEL_LINE);
    const frameId = frames[0]?.id ?? 0;
    const locals = (await dc.scopesRequest({ frameId })).body.scopes.find((s) => s.name === 'Locals');
    assert.ok(locals);
    const vars = (await dc.variablesRequest({ variablesReference: locals.variablesReference })).body.variables;
    assert.ok(vars.some((v) => v.name === 'req'), vars.map((v) => v.name).join(', '));
    assert.equal((await dc.evaluateRequest({ expression: 'src.Name', frameId, context: 'watch' })).body.result, '"app-config"');
    // `why` in the Debug Console at this Go stop is about the reconcile running here.
    const why = (await dc.evaluateRequest({ expression: 'why', frameId, context: 'repl' })).body.result;
    assert.match(why, /^Why \(not\)\? ConfigMap default\/app-config\n/, why);

    // Go on: the reconcile finishes, and the next reconcile of app-config stops before it runs.
    const again = dc.waitForEvent('stopped');
    await dc.continueRequest({ threadId: goThread });
    const next = (await again) as DebugProtocol.StoppedEvent;
    assert.equal(next.body.reason, 'breakpoint');
    assert.equal(next.body.threadId, 1);

    assert.ok(pid > 0 && isAlive(pid), 'dlv runs');
    const started = childrenOf(pid);
    assert.ok(started.length > 0, 'the program runs under dlv');
    await dc.disconnectRequest({});
    for (let i = 0; i < 200 && [pid, ...started].some(isAlive); i++) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual([pid, ...started].filter(isAlive), [], 'dlv or the program is still running');
  } finally {
    await dc.stop();
  }
});
