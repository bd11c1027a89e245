import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import { expand, launch, scope, startClient, topFrame, valueOf } from './dapClient.ts';
import { GO_EXAMPLE, GO_EXAMPLE_SCENARIO, writeGoProgram } from '../unit/runtime/support/goPrograms.ts';
import { GO_THREAD_BASE } from '../../src/debug/go/goLineDebugging.ts';

// Data breakpoints on cluster state, Go: go/examples/configmap-mirror (controller-runtime through
// controllerlab.Wrap) against the sim. The controller writes app-config-mirror's data; the
// scenario changes app-config's greeting from hello to bonjour after a second. Deletes: test/fixtures/goDelete.

const MAIN_GO = join(GO_EXAMPLE, 'main.go');
/** A controller that deletes the ConfigMap a scenario step labels expired. */
const DELETE_FIXTURE = (name: string) => fileURLToPath(new URL(`../fixtures/goDelete/${name}`, import.meta.url));
const MAIN_LINES = readFileSync(MAIN_GO, 'utf8').split('\n');
const WRITE_LINE = MAIN_LINES.findIndex((l) => l.includes('controllerutil.CreateOrUpdate(')) + 1;
/** Reconcile's line after the client call. */
const RETURN_LINE = MAIN_LINES.findIndex((l, i) => i >= WRITE_LINE && l.includes('return reconcile.Result{}, err')) + 1;

async function goClient(): Promise<DebugClient> {
  const dc = await startClient();
  // The first launch builds the program (a few seconds with a warm Go build cache).
  dc.defaultTimeout = 180_000;
  return dc;
}

async function stopped(dc: DebugClient, act: () => Promise<unknown>): Promise<DebugProtocol.StoppedEvent> {
  const event = dc.waitForEvent('stopped');
  await act();
  return (await event) as DebugProtocol.StoppedEvent;
}

async function change(dc: DebugClient, frameId: number, field: string): Promise<DebugProtocol.Variable[]> {
  return expand(dc, await scope(dc, frameId, 'Data Breakpoint'), field);
}

test('Go: a data breakpoint (glob name) on a field the controller writes stops at the reconcile whose create, then update, changed it; reverse continue goes back', { timeout: 600_000 }, async () => {
  const dc = await goClient();
  try {
    const created = await stopped(dc, () => launch(dc, { program: GO_EXAMPLE, scenario: GO_EXAMPLE_SCENARIO }, { functionBreakpoints: [{ name: 'ConfigMap */*-mirror .data.greeting' }] }));
    assert.equal(created.body.reason, 'data breakpoint');
    assert.match(created.body.description ?? '', new RegExp(`ConfigMap default/app-config-mirror \\.data\\.greeting: unset → "hello" \\(rv \\d+\\), by this reconcile's create at main\\.go:${WRITE_LINE} \\(write 1\\)`));
    const frame1 = await topFrame(dc, 1);
    // The frame points at the line of Reconcile whose client call made the change (CreateOrUpdate's).
    assert.equal(frame1.source?.path, MAIN_GO);
    assert.equal(frame1.line, WRITE_LINE);
    assert.match(frame1.name, /^reconcile ConfigMap default\/app-config #\d+/);
    const c1 = await change(dc, frame1.id, 'ConfigMap default/app-config-mirror .data.greeting');
    assert.deepEqual([valueOf(c1, 'before'), valueOf(c1, 'after')], ['undefined', '"hello"']);
    assert.equal(valueOf(c1, 'changedBy'), `"this reconcile: create ConfigMap default/app-config-mirror at main.go:${WRITE_LINE} (write 1)"`);

    // The scenario changes app-config; its reconcile updates the mirror: hello → bonjour.
    const updated = await stopped(dc, () => dc.continueRequest({ threadId: 1 }));
    assert.equal(updated.body.reason, 'data breakpoint');
    assert.match(updated.body.description ?? '', new RegExp(`"hello" → "bonjour" \\(rv \\d+\\), by this reconcile's update at main\\.go:${WRITE_LINE} \\(write 1\\)`));
    const frame2 = await topFrame(dc, 1);
    assert.match(frame2.name, /^reconcile ConfigMap default\/app-config #\d+ · MODIFIED rv \d+$/);
    assert.ok(frame2.id > frame1.id);

    const back = await stopped(dc, () => dc.reverseContinueRequest({ threadId: 1 }));
    assert.equal(back.body.reason, 'data breakpoint');
    assert.equal((await topFrame(dc, 1)).id, frame1.id);
  } finally {
    await dc.stop();
  }
});

test('Go: a data breakpoint with a condition on a field the scenario changes stops at the reconcile it triggered', { timeout: 600_000 }, async () => {
  const dc = await goClient();
  try {
    const stop = await stopped(dc, () =>
      launch(dc, { program: GO_EXAMPLE, scenario: GO_EXAMPLE_SCENARIO }, { functionBreakpoints: [{ name: 'ConfigMap default/app-config .data.greeting == "bonjour"' }] }),
    );
    assert.equal(stop.body.reason, 'data breakpoint');
    assert.match(stop.body.description ?? '', /ConfigMap default\/app-config \.data\.greeting: "hello" → "bonjour" \(rv \d+\), outside the controller/);
    const frame = await topFrame(dc, 1);
    assert.match(frame.name, /^reconcile ConfigMap default\/app-config #\d+ · MODIFIED rv \d+$/);
    const c = await change(dc, frame.id, 'ConfigMap default/app-config .data.greeting');
    assert.match(valueOf(c, 'changedBy') ?? '', /outside the controller/);
    assert.equal((await scope(dc, frame.id, 'Writes'))[0]?.name, '(not run yet)', 'held before it runs');
  } finally {
    await dc.stop();
  }
});

test('Go under Delve ("lineBreakpoints": true): a data breakpoint on the controller\'s write pauses the program with the writing goroutine in the client call; continue lets the reconcile finish', { timeout: 600_000 }, async () => {
  const dc = await goClient();
  try {
    const stop = await stopped(dc, () =>
      launch(dc, { program: GO_EXAMPLE, scenario: GO_EXAMPLE_SCENARIO, lineBreakpoints: true }, { functionBreakpoints: [{ name: 'ConfigMap default/app-config-mirror .data.greeting' }] }),
    );
    assert.equal(stop.body.reason, 'data breakpoint');
    assert.match(stop.body.description ?? '', new RegExp(`unset → "hello" \\(rv \\d+\\), by this reconcile's create at main\\.go:${WRITE_LINE} \\(write 1\\)`));
    // The writer's goroutine, as Delve numbers it, is the stopped thread.
    const writer = stop.body.threadId ?? 0;
    assert.ok(writer > GO_THREAD_BASE, `a goroutine thread: ${writer}`);
    const threads = (await dc.threadsRequest()).body.threads;
    assert.ok(threads.some((t) => t.id === writer && t.name === `goroutine ${writer - GO_THREAD_BASE} (Go)`), JSON.stringify(threads));

    // Its stack starts in the client call (CreateOrUpdate's, de-emphasised); the controller's own top frame is the call's line.
    const frames = (await dc.stackTraceRequest({ threadId: writer })).body.stackFrames;
    assert.match(frames[0]?.name ?? '', /controllerutil\.CreateOrUpdate$/);
    const own = frames.find((f) => f.presentationHint !== 'subtle');
    assert.match(own?.name ?? '', /mirrorReconciler\)\.Reconcile$/);
    assert.equal(own?.source?.path, MAIN_GO);
    assert.equal(own?.line, WRITE_LINE);
    assert.ok(!frames.slice(0, own ? frames.indexOf(own) : 0).some((f) => /^controllerlab\./.test(f.name)), `no frames of the hold: ${frames.map((f) => f.name).join(', ')}`);

    // The frame is Delve's (its locals), with the change above them.
    const frameId = own?.id ?? 0;
    assert.equal((await dc.evaluateRequest({ expression: 'mirror.Name', frameId, context: 'watch' })).body.result, '"app-config-mirror"');
    const scopes = (await dc.scopesRequest({ frameId })).body.scopes.map((s) => s.name);
    assert.equal(scopes[0], 'Data Breakpoint');
    assert.ok(scopes.includes('Locals'), scopes.join(', '));
    const c = await change(dc, frameId, 'ConfigMap default/app-config-mirror .data.greeting');
    assert.deepEqual([valueOf(c, 'before'), valueOf(c, 'after')], ['undefined', '"hello"']);
    assert.equal(valueOf(c, 'changedBy'), `"this reconcile: create ConfigMap default/app-config-mirror at main.go:${WRITE_LINE} (write 1)"`);

    // Continue: the write goes on and the reconcile finishes; the scenario's change then makes the update's stop, on a goroutine again.
    const updated = await stopped(dc, () => dc.continueRequest({ threadId: writer }));
    assert.equal(updated.body.reason, 'data breakpoint');
    assert.match(updated.body.description ?? '', /"hello" → "bonjour" \(rv \d+\), by this reconcile's update/);
    assert.ok((updated.body.threadId ?? 0) > GO_THREAD_BASE);

    // Back to the first reconcile, recorded: it ended normally, its create among its writes.
    const back = await stopped(dc, () => dc.reverseContinueRequest({ threadId: 1 }));
    assert.equal(back.body.threadId, 1);
    const first = await topFrame(dc, 1);
    assert.equal((await scope(dc, first.id, 'Writes'))[0]?.name, '0: create ConfigMap default/app-config-mirror');
    const result = await scope(dc, first.id, 'Result');
    assert.ok(result.some((v) => v.name === 'requeue') && !result.some((v) => v.name === '(not run yet)'), JSON.stringify(result));
  } finally {
    await dc.stop();
  }
});

test('Go under Delve: a data breakpoint on a field of an object the controller deletes pauses the writing goroutine in the Delete call (the field goes to unset); Step Into goes on to the next line', { timeout: 600_000 }, async () => {
  const program = writeGoProgram(readFileSync(DELETE_FIXTURE('main.go'), 'utf8'));
  const deleteLine = readFileSync(program.mainFile, 'utf8').split('\n').findIndex((l) => l.includes('r.Delete(ctx, &cm)')) + 1;
  // The scenario seeds the ConfigMap (unset → "hello"): only its going away is of interest.
  const GONE = { name: 'ConfigMap default/session .data.greeting', condition: 'value === undefined' };
  const dc = await goClient();
  try {
    const stop = await stopped(dc, () =>
      launch(dc, { program: program.dir, scenario: DELETE_FIXTURE('scenario.yaml'), lineBreakpoints: true }, { functionBreakpoints: [GONE] }),
    );
    assert.equal(stop.body.reason, 'data breakpoint');
    assert.match(stop.body.description ?? '', new RegExp(`ConfigMap default/session \\.data\\.greeting: "hello" → unset \\(rv \\d+\\), by this reconcile's delete at main\\.go:${deleteLine} \\(write 1\\)`));
    const writer = stop.body.threadId ?? 0;
    assert.ok(writer > GO_THREAD_BASE, `the writing goroutine: ${writer}`);
    const frames = (await dc.stackTraceRequest({ threadId: writer })).body.stackFrames;
    const own = frames.find((f) => f.presentationHint !== 'subtle');
    assert.match(own?.name ?? '', /expiryReconciler\)\.Reconcile$/);
    assert.deepEqual([own?.source?.path, own?.line], [program.mainFile, deleteLine]);
    const c = await change(dc, own?.id ?? 0, 'ConfigMap default/session .data.greeting');
    assert.deepEqual([valueOf(c, 'before'), valueOf(c, 'after')], ['"hello"', 'undefined']);

    // Step Into: the delete goes on and the writer stops on the next line (it calls nothing).
    const stepped = await stopped(dc, () => dc.stepInRequest({ threadId: writer }));
    assert.deepEqual([stepped.body.reason, stepped.body.threadId], ['step', writer]);
    const [top] = (await dc.stackTraceRequest({ threadId: writer })).body.stackFrames;
    assert.deepEqual([top?.source?.path, top?.line], [program.mainFile, deleteLine + 1]);

    // Continue: its reconcile ends, and the one its DELETED event triggers finds nothing.
    await dc.setFunctionBreakpointsRequest({ breakpoints: [GONE, { name: 'ConfigMap default/session', condition: 'obj === undefined' }] });
    const gone = await stopped(dc, () => dc.continueRequest({ threadId: writer }));
    assert.deepEqual([gone.body.reason, gone.body.threadId], ['breakpoint', 1]);
    const back = await stopped(dc, () => dc.reverseContinueRequest({ threadId: 1 }));
    assert.equal(back.body.reason, 'data breakpoint');
    const deleter = await topFrame(dc, 1);
    assert.equal((await scope(dc, deleter.id, 'Writes'))[0]?.name, '0: delete ConfigMap default/session');
  } finally {
    await dc.stop();
    program.dispose();
  }
});

test('Go under Delve: Step Over from a held write stops at the next line of the controller\'s function on the writer goroutine; Step Out from the next one stops in its caller; continue finishes', { timeout: 600_000 }, async () => {
  const dc = await goClient();
  try {
    const stop = await stopped(dc, () =>
      launch(dc, { program: GO_EXAMPLE, scenario: GO_EXAMPLE_SCENARIO, lineBreakpoints: true }, { functionBreakpoints: [{ name: 'ConfigMap default/app-config-mirror .data.greeting' }] }),
    );
    assert.equal(stop.body.reason, 'data breakpoint');
    const writer = stop.body.threadId ?? 0;
    assert.ok(writer > GO_THREAD_BASE, `the writing goroutine: ${writer}`);

    const stepped = await stopped(dc, () => dc.nextRequest({ threadId: writer }));
    assert.deepEqual([stepped.body.reason, stepped.body.threadId], ['step', writer]);
    const [top] = (await dc.stackTraceRequest({ threadId: writer })).body.stackFrames;
    assert.match(top?.name ?? '', /mirrorReconciler\)\.Reconcile$/);
    assert.equal(top?.source?.path, MAIN_GO);
    assert.equal(top?.line, RETURN_LINE, `the line after the call (${top?.line})`);
    // The write went on: the created mirror is in the controller's hands.
    assert.equal((await dc.evaluateRequest({ expression: 'mirror.ResourceVersion != ""', frameId: top?.id ?? 0, context: 'watch' })).body.result, 'true');

    // Continue: the reconcile finishes; the scenario's change makes the update's stop, held again.
    const updated = await stopped(dc, () => dc.continueRequest({ threadId: writer }));
    assert.equal(updated.body.reason, 'data breakpoint');
    const updater = updated.body.threadId ?? 0;
    assert.ok(updater > GO_THREAD_BASE);
    const out = await stopped(dc, () => dc.stepOutRequest({ threadId: updater }));
    assert.deepEqual([out.body.reason, out.body.threadId], ['step', updater]);
    const [caller] = (await dc.stackTraceRequest({ threadId: updater })).body.stackFrames;
    assert.doesNotMatch(caller?.name ?? '', /mirrorReconciler\)\.Reconcile$|CreateOrUpdate/, 'Reconcile returned');

    // Continue: the scenario then deletes db-config's mirror, whose reconcile stops; back in history, the update's reconcile ended normally.
    await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'ConfigMap default/app-config-mirror .data.greeting' }, { name: 'ConfigMap default/db-config' }] });
    const later = await stopped(dc, () => dc.continueRequest({ threadId: updater }));
    assert.deepEqual([later.body.reason, later.body.threadId], ['breakpoint', 1]);
    const back = await stopped(dc, () => dc.reverseContinueRequest({ threadId: 1 }));
    assert.equal(back.body.reason, 'data breakpoint');
    const update = await topFrame(dc, 1);
    assert.equal((await scope(dc, update.id, 'Writes'))[0]?.name, '0: update ConfigMap default/app-config-mirror');
    const result = await scope(dc, update.id, 'Result');
    assert.ok(result.some((v) => v.name === 'requeue') && !result.some((v) => v.name === '(not run yet)'), JSON.stringify(result));
  } finally {
    await dc.stop();
  }
});
