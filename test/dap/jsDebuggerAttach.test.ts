import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { releaseInspectorWait } from '../../src/runtime/inspectorRelease.ts';
import { RS_CONTROLLER, RS_SCENARIO, launch, startClient, topFrame } from './dapClient.ts';

// Line debugging goes through a JavaScript debugger attached to the controller process, which waits
// for it before running user code. Attached, the session goes on; not attached in time, the user
// gets one clear message and the controller runs on: never a session that waits forever.

const ATTACH_EVENT = 'controllerLab.attachJsDebugger';

function collectOutput(dc: Awaited<ReturnType<typeof startClient>>): DebugProtocol.OutputEvent['body'][] {
  const outputs: DebugProtocol.OutputEvent['body'][] = [];
  dc.on('output', (e: DebugProtocol.OutputEvent) => outputs.push(e.body));
  return outputs;
}

test('"attachJsDebugger": a debugger that attaches on 127.0.0.1 lets the controller run to its first reconcile', async () => {
  const dc = await startClient();
  try {
    const outputs = collectOutput(dc);
    // Stands in for VS Code's JavaScript debugger: connects where the event says and lets the host run.
    dc.on(ATTACH_EVENT, (e: DebugProtocol.Event) => void releaseInspectorWait(String((e.body as { url: string }).url)));
    const attach = dc.waitForEvent(ATTACH_EVENT);
    const stopped = dc.waitForEvent('stopped');
    await launch(dc, { controller: RS_CONTROLLER, scenario: RS_SCENARIO, stopOnEntry: true, attachJsDebugger: true, attachTimeoutMs: 15_000 });
    const body = (await attach).body as { port: number; url: string };
    assert.match(body.url, /^ws:\/\/127\.0\.0\.1:\d+\//);
    assert.equal(((await stopped) as DebugProtocol.StoppedEvent).body.reason, 'entry');
    assert.ok(outputs.some((o) => o.output.includes('JavaScript debugger attached')));
    assert.ok(!outputs.some((o) => o.category === 'important'), 'no failure message');
  } finally {
    await dc.stop();
  }
});

test('"attachJsDebugger" with no debugger attaching: a clear message, then the controller runs on', async () => {
  const dc = await startClient();
  try {
    const outputs = collectOutput(dc);
    const stopped = dc.waitForEvent('stopped');
    await launch(dc, { controller: RS_CONTROLLER, scenario: RS_SCENARIO, stopOnEntry: true, attachJsDebugger: true, attachTimeoutMs: 1500 });
    assert.equal(((await stopped) as DebugProtocol.StoppedEvent).body.reason, 'entry');
    const failure = outputs.find((o) => o.category === 'important');
    assert.match(failure?.output ?? '', /The JavaScript debugger did not attach within 1\.5 s .* line breakpoints will not hit in this session\. The controller runs on/);
    assert.match((await topFrame(dc, 1)).name, /^reconcile ReplicaSet default\/(web|api) #1 /);
  } finally {
    await dc.stop();
  }
});

test('Step Into with no debugger attaching: one attach request, a clear message, then the next reconcile stops', async () => {
  const dc = await startClient();
  try {
    const outputs = collectOutput(dc);
    let attachRequests = 0;
    dc.on(ATTACH_EVENT, () => attachRequests++);
    const entry = dc.waitForEvent('stopped');
    await launch(dc, { controller: RS_CONTROLLER, scenario: RS_SCENARIO, stopOnEntry: true, attachTimeoutMs: 1500 });
    await entry;
    const first = await topFrame(dc, 1);
    const next = dc.waitForEvent('stopped');
    await dc.stepInRequest({ threadId: 1 });
    assert.equal(((await next) as DebugProtocol.StoppedEvent).body.reason, 'step');
    assert.notEqual((await topFrame(dc, 1)).id, first.id, 'stopped at a later reconcile');
    assert.match(outputs.find((o) => o.category === 'important')?.output ?? '', /did not attach within 1\.5 s/);
    assert.equal(attachRequests, 1, 'the editor is asked to attach one JavaScript debugger');
  } finally {
    await dc.stop();
  }
});

test('an editor that cannot start the JavaScript debugger ends the wait at once', async () => {
  const dc = await startClient();
  try {
    const outputs = collectOutput(dc);
    dc.on(ATTACH_EVENT, () => void dc.customRequest('controllerLab.jsDebuggerUnavailable', { reason: 'could not be started: no pwa-node debugger' }));
    const stopped = dc.waitForEvent('stopped');
    const started = Date.now();
    await launch(dc, { controller: RS_CONTROLLER, scenario: RS_SCENARIO, stopOnEntry: true, attachJsDebugger: true, attachTimeoutMs: 60_000 });
    await stopped;
    assert.ok(Date.now() - started < 30_000, 'did not wait for the timeout');
    assert.match(outputs.find((o) => o.category === 'important')?.output ?? '', /The JavaScript debugger could not be started: no pwa-node debugger/);
  } finally {
    await dc.stop();
  }
});
