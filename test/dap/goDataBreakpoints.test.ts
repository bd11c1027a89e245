import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import { expand, launch, scope, startClient, topFrame, valueOf } from './dapClient.ts';
import { GO_EXAMPLE, GO_EXAMPLE_SCENARIO } from '../unit/runtime/support/goPrograms.ts';

// Data breakpoints on cluster state, Go: go/examples/configmap-mirror (controller-runtime through
// controllerlab.Wrap) against the sim. The controller writes app-config-mirror's data; the
// scenario changes app-config's greeting from hello to bonjour after a second.

const MAIN_GO = join(GO_EXAMPLE, 'main.go');
const WRITE_LINE = readFileSync(MAIN_GO, 'utf8').split('\n').findIndex((l) => l.includes('controllerutil.CreateOrUpdate(')) + 1;

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

test('Go under Delve ("lineBreakpoints": true): a data breakpoint on the controller\'s write stops on its reconcile thread, the frame on the line of the client call', { timeout: 600_000 }, async () => {
  const dc = await goClient();
  try {
    const stop = await stopped(dc, () =>
      launch(dc, { program: GO_EXAMPLE, scenario: GO_EXAMPLE_SCENARIO, lineBreakpoints: true }, { functionBreakpoints: [{ name: 'ConfigMap default/app-config-mirror .data.greeting' }] }),
    );
    assert.equal(stop.body.reason, 'data breakpoint');
    assert.equal(stop.body.threadId, 1, 'the reconcile thread: the goroutine has gone on past the call');
    assert.match(stop.body.description ?? '', new RegExp(`by this reconcile's create at main\\.go:${WRITE_LINE} \\(write 1\\)`));
    const frame = await topFrame(dc, 1);
    assert.equal(frame.source?.path, MAIN_GO);
    assert.equal(frame.line, WRITE_LINE);
  } finally {
    await dc.stop();
  }
});
