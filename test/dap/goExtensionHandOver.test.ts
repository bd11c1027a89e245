import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { isAlive, launch, startClient, topFrame } from './dapClient.ts';
import { GO_EXAMPLE, GO_EXAMPLE_SCENARIO } from '../unit/runtime/support/goPrograms.ts';
import { DelveDebugger } from '../../src/debug/go/delveDebugger.ts';
import { ATTACH_GO_EVENT, GO_DEBUGGER_UNAVAILABLE_REQUEST, GO_STEP_INTO_EVENT, GO_STEP_INTO_PLACED_REQUEST, GO_STEPPED_IN_REQUEST, type GoDebuggerHandOver, type GoStepInto } from '../../src/debug/go/goChildSession.ts';

// `"goDebugger": "vscode-go"`: the adapter runs the Go program under a headless Delve and hands
// Delve to VS Code's Go extension (a child session the editor starts on the hand-over event).
// The Go extension cannot be installed here, so its place is taken by a DAP client doing the same
// remote attach it does; and when the editor reports that the Go extension's session could not
// start, the adapter's own Delve connection takes over.

const MAIN_GO = join(GO_EXAMPLE, 'main.go');
const MAIN_LINES = readFileSync(MAIN_GO, 'utf8').split('\n');
const LABEL_LINE = MAIN_LINES.findIndex((l) => l.includes('src.Labels["mirror"] != "source"')) + 1;
const RECONCILE_LINE = MAIN_LINES.findIndex((l) => l.startsWith('func (r *mirrorReconciler) Reconcile(')) + 1;

function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((t) => readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
  } catch {
    return [];
  }
}

test('Go: with goDebugger vscode-go, Delve is handed to another DAP client that stops in Reconcile, also by Step Into; reconcile stops go on', { timeout: 600_000 }, async (t) => {
  const dc = await startClient();
  dc.defaultTimeout = 180_000;
  const cleanup: (() => Promise<unknown>)[] = [() => dc.stop()];
  let pid = 0;
  dc.on('output', (e: DebugProtocol.OutputEvent) => {
    const m = /Go process pid (\d+)/.exec(e.body.output);
    if (m) pid = Number(m[1]);
  });
  t.after(async () => {
    for (const c of cleanup.reverse()) await c();
  });
  const handOver = dc.waitForEvent(ATTACH_GO_EVENT);
  const first = dc.waitForEvent('stopped');
  const launched = launch(dc, { program: GO_EXAMPLE, scenario: GO_EXAMPLE_SCENARIO, goDebugger: 'vscode-go' }, { functionBreakpoints: [{ name: 'ConfigMap default/app-config' }] });
  const body = ((await handOver) as DebugProtocol.Event).body as GoDebuggerHandOver;
  assert.equal(body.host, '127.0.0.1');
  assert.ok(body.port > 0);
  assert.equal(body.name, 'configmap-mirror (Go)');

  // What the Go extension does with goChildConfiguration(body): a remote attach to that Delve.
  const goSession = await DelveDebugger.attach({ port: body.port });
  cleanup.push(() => goSession.shutdown());
  const placed = await goSession.setBreakpoints(MAIN_GO, [{ line: LABEL_LINE, condition: 'req.Name == "app-config"' }]);
  assert.equal(placed[0]?.verified, true, placed[0]?.message);
  const goStopped = new Promise<DebugProtocol.StoppedEvent['body']>((done) => goSession.once('stopped', done));
  await goSession.configurationDone();
  await launched;

  const reconcileStop = (await first) as DebugProtocol.StoppedEvent;
  assert.equal(reconcileStop.body.reason, 'breakpoint');
  await dc.continueRequest({ threadId: 1 });

  // The Go session stops in Reconcile; the reconcile session shows no goroutine of its own.
  const inside = await goStopped;
  assert.equal(inside.reason, 'breakpoint');
  const frames = await goSession.stackTrace(inside.threadId ?? 0);
  assert.match(frames[0]?.name ?? '', /mirrorReconciler\)\.Reconcile$/);
  assert.equal(frames[0]?.line, LABEL_LINE);
  assert.deepEqual((await dc.threadsRequest()).body.threads.map((th) => th.name), ['worker 1']);

  const again = dc.waitForEvent('stopped');
  await goSession.continue(inside.threadId ?? 0);
  const next = (await again) as DebugProtocol.StoppedEvent;
  assert.equal(next.body.reason, 'breakpoint');
  assert.match((await topFrame(dc, next.body.threadId ?? 1)).name, /^reconcile ConfigMap default\/app-config /);
  await goSession.setBreakpoints(MAIN_GO, []);

  // Step Into: the adapter asks the editor for a one-shot breakpoint on Reconcile in the Go
  // session (the editor does it with customRequest on the Go extension's session) and waits.
  const asked = dc.waitForEvent(GO_STEP_INTO_EVENT);
  const steppedIn = new Promise<DebugProtocol.StoppedEvent['body']>((done) => goSession.once('stopped', done));
  const stepIn = dc.stepInRequest({ threadId: next.body.threadId ?? 1 });
  const request = ((await asked) as DebugProtocol.Event).body as GoStepInto;
  assert.match(request.function, /^main\.\(\*mirrorReconciler\)\.Reconcile$/);
  assert.match(request.condition ?? '', /^runtime\.curg\.goid == \d+$/);
  const oneShot = await goSession.setFunctionBreakpoints([{ name: request.function, condition: request.condition }]);
  assert.equal(oneShot[0]?.verified, true, oneShot[0]?.message);
  await dc.customRequest(GO_STEP_INTO_PLACED_REQUEST, { placed: true });
  await stepIn;
  const entered = await steppedIn;
  const top = (await goSession.stackTrace(entered.threadId ?? 0))[0];
  assert.match(top?.name ?? '', /mirrorReconciler\)\.Reconcile$/);
  assert.equal(top?.line, RECONCILE_LINE);
  // What the editor does when the Go session stops there: the one-shot goes, the parent is told.
  await goSession.setFunctionBreakpoints([]);
  await dc.customRequest(GO_STEPPED_IN_REQUEST);
  const after = dc.waitForEvent('stopped');
  await goSession.continue(entered.threadId ?? 0);
  const stepStop = (await after) as DebugProtocol.StoppedEvent;
  assert.equal(stepStop.body.reason, 'step');

  // Ending the reconcile session while the Go session holds the program at a breakpoint ends dlv
  // and the program.
  await goSession.setBreakpoints(MAIN_GO, [{ line: LABEL_LINE }]);
  const held = new Promise<DebugProtocol.StoppedEvent['body']>((done) => goSession.once('stopped', done));
  await dc.continueRequest({ threadId: stepStop.body.threadId ?? 1 });
  assert.equal((await held).reason, 'breakpoint');
  const running = [pid, ...childrenOf(pid)];
  assert.ok(pid > 0 && running.length > 1, `dlv ${pid} runs the program: ${running.join(', ')}`);
  await dc.disconnectRequest({});
  for (let i = 0; i < 200 && running.some(isAlive); i++) await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(running.filter(isAlive), [], 'dlv or the program is still running');
  assert.equal(goSession.running, false, 'the Go session ended with them');
});

test('Go: with goDebugger vscode-go and no Go extension session, the adapter\'s own Delve connection takes the line breakpoints', { timeout: 600_000 }, async () => {
  const dc = await startClient();
  dc.defaultTimeout = 180_000;
  const console: string[] = [];
  dc.on('output', (e: DebugProtocol.OutputEvent) => console.push(e.body.output));
  try {
    const handOver = dc.waitForEvent(ATTACH_GO_EVENT);
    const initialized = dc.waitForEvent('initialized');
    await dc.initializeRequest({ adapterID: 'controller-lab', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' });
    const launched = dc.launchRequest({ cluster: 'sim', program: GO_EXAMPLE, scenario: GO_EXAMPLE_SCENARIO, goDebugger: 'vscode-go' } as DebugProtocol.LaunchRequestArguments);
    await initialized;
    await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'ConfigMap default/app-config' }] });
    const lines = await dc.setBreakpointsRequest({ source: { path: MAIN_GO }, breakpoints: [{ line: LABEL_LINE, condition: 'req.Name == "app-config"' }] });
    assert.equal(lines.body.breakpoints[0]?.verified, false);
    await dc.configurationDoneRequest();
    await handOver;

    // The editor could not start the Go extension's session.
    const placed = dc.waitForEvent('breakpoint');
    const first = dc.waitForEvent('stopped');
    await dc.customRequest(GO_DEBUGGER_UNAVAILABLE_REQUEST, { reason: 'could not be started: no debug adapter for type "go"' });
    await launched;
    assert.equal(((await placed) as DebugProtocol.BreakpointEvent).body.breakpoint.verified, true);
    assert.ok(console.some((l) => l.includes("The Go extension's debugger could not be started: no debug adapter") && l.includes("Controller Lab's own Delve connection")), console.join(''));

    const reconcileStop = (await first) as DebugProtocol.StoppedEvent;
    assert.equal(reconcileStop.body.reason, 'breakpoint');
    const goStop = dc.waitForEvent('stopped');
    await dc.continueRequest({ threadId: 1 });
    const inside = (await goStop) as DebugProtocol.StoppedEvent;
    assert.ok((inside.body.threadId ?? 0) > 1000, `a goroutine thread: ${inside.body.threadId}`);
    const frame = await topFrame(dc, inside.body.threadId ?? 0);
    assert.match(frame.name, /mirrorReconciler\)\.Reconcile$/);
    assert.equal(frame.line, LABEL_LINE);
    await dc.disconnectRequest({});
  } finally {
    await dc.stop();
  }
});
