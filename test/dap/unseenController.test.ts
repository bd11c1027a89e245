import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import { ask, askUntil, expand, launch, scope, startClient, topFrame, valueOf } from './dapClient.ts';

// A controller written for none of the other tests (fixtures/unseen): each Service gets a
// ConfigMap `<svc>-ports` and a port-count annotation; the scenario gives `front` a second port
// at 1s and deletes `back` a second later. Checks what a user sees while debugging it.

const FIXTURE = (name: string) => fileURLToPath(new URL(`fixtures/unseen/${name}`, import.meta.url));
const CONTROLLER = FIXTURE('controller.ts');
const SCENARIO = FIXTURE('scenario.yaml');

async function stopped(dc: DebugClient, act: () => Promise<unknown>): Promise<DebugProtocol.StoppedEvent> {
  const event = dc.waitForEvent('stopped');
  await act();
  return (await event) as DebugProtocol.StoppedEvent;
}

async function evaluate(dc: DebugClient, expression: string): Promise<string> {
  return (await dc.evaluateRequest({ expression, frameId: (await topFrame(dc, 1)).id, context: 'watch' })).body.result;
}

test('an unseen Service controller: entry, scopes, a conditional breakpoint, stepping back, why', { timeout: 60_000 }, async () => {
  const dc = await startClient();
  try {
    const entry = await stopped(dc, () => launch(dc, { controller: CONTROLLER, scenario: SCENARIO, stopOnEntry: true }));
    assert.equal(entry.body.reason, 'entry');
    // The sim's own `kubernetes` Service comes first; then the scenario's.
    const first = await stopped(dc, () => dc.nextRequest({ threadId: 1 }));
    assert.equal(first.body.reason, 'step');
    const front = await topFrame(dc, 1);
    assert.match(front.name, /^reconcile Service default\/front #2 · ADDED rv (\d+)$/);
    const rv = /rv (\d+)$/.exec(front.name)?.[1];
    assert.equal(valueOf(await scope(dc, front.id, 'Request'), 'name'), '"front"');
    assert.equal(valueOf(await expand(dc, await scope(dc, front.id, 'Object'), 'metadata'), 'name'), '"front"');
    const trigger = await scope(dc, front.id, 'Trigger');
    assert.equal(trigger[0]?.name, '0: ADDED Service default/front');
    assert.equal(valueOf(await expand(dc, trigger, '0: ADDED Service default/front'), 'resourceVersion'), JSON.stringify(rv));
    assert.equal((await scope(dc, front.id, 'Writes'))[0]?.name, '(not run yet)');
    assert.equal(await evaluate(dc, 'cache.list("ConfigMap").some((c) => c.metadata.name === "front-ports")'), 'false');

    // Step Over runs it; Step Back shows its writes and the cache as it was before them.
    await stopped(dc, () => dc.nextRequest({ threadId: 1 }));
    assert.match((await topFrame(dc, 1)).name, /^reconcile Service default\/back #3 /);
    await stopped(dc, () => dc.stepBackRequest({ threadId: 1 }));
    const back = await topFrame(dc, 1);
    assert.equal(back.id, front.id);
    assert.deepEqual(
      (await scope(dc, back.id, 'Writes')).map((w) => w.name),
      ['0: create ConfigMap default/front-ports', '1: update Service default/front'],
    );
    assert.equal(valueOf(await scope(dc, back.id, 'Result'), 'requeue'), '{action: "forget"}');
    assert.equal(await evaluate(dc, 'cache.list("ConfigMap").some((c) => c.metadata.name === "front-ports")'), 'false');

    // Only the reconcile after the port change has two ports.
    await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'Service default/front', condition: 'obj.spec.ports.length > 1' }] });
    const cond = await stopped(dc, () => dc.continueRequest({ threadId: 1 }));
    assert.equal(cond.body.reason, 'breakpoint');
    assert.match((await topFrame(dc, 1)).name, /^reconcile Service default\/front #\d+ · MODIFIED rv \d+$/);
    assert.equal(await evaluate(dc, 'obj.spec.ports.map((p) => p.port).join()'), '"80,443"');
    assert.equal(await evaluate(dc, 'obj.metadata.annotations["ports.example.com/count"]'), '"1"');
    // Reverse Continue: no earlier reconcile matches, so it goes back to the first recorded one.
    await stopped(dc, () => dc.reverseContinueRequest({ threadId: 1 }));
    assert.match((await topFrame(dc, 1)).name, /^reconcile Service default\/kubernetes #1 /);

    await dc.setFunctionBreakpointsRequest({ breakpoints: [] });
    await dc.continueRequest({ threadId: 1 });
    const deleted = await askUntil(dc, 'why default/back', /^DELETED rv \d+:\n {2}service-ports: reconciled/m);
    assert.match(deleted, /^Why \(not\)\? Service default\/back$/m);
    assert.match(deleted, /^DELETED rv \d+:\n {2}service-ports: reconciled \(#\d+\)$/m, deleted);
    const owned = await ask(dc, 'why ConfigMap default/back-ports');
    assert.match(owned, /^ {4}Mapped to\? Service default\/back \(Owns\)$/m, owned);
  } finally {
    await dc.stop();
  }
});

test('a data breakpoint on an unseen controller\'s Service ports stops before the reconcile the port change triggered', { timeout: 60_000 }, async () => {
  const dc = await startClient();
  try {
    const created = await stopped(dc, () => launch(dc, { controller: CONTROLLER, scenario: SCENARIO }, { functionBreakpoints: [{ name: 'Service default/front .spec.ports' }] }));
    assert.equal(created.body.reason, 'data breakpoint');
    assert.match(created.body.description ?? '', /^Service default\/front \.spec\.ports: unset → \[\{"name":"http","port":80,/);
    const changed = await stopped(dc, () => dc.continueRequest({ threadId: 1 }));
    assert.equal(changed.body.reason, 'data breakpoint');
    assert.match(changed.body.description ?? '', /outside the controller; this reconcile is the one it triggered$/);
    const frame = await topFrame(dc, 1);
    assert.match(frame.name, /^reconcile Service default\/front #\d+ · MODIFIED rv \d+$/);
    const row = (await scope(dc, frame.id, 'Data Breakpoint')).find((v) => v.name.startsWith('Service default/front .spec.ports'));
    assert.ok(row);
    const c = (await dc.variablesRequest({ variablesReference: row.variablesReference })).body.variables;
    assert.equal(valueOf(c, 'before'), 'Array(1)');
    assert.equal(valueOf(c, 'after'), 'Array(2)');
    assert.equal((await scope(dc, frame.id, 'Writes'))[0]?.name, '(not run yet)', 'held before it runs');
    // Reverse Continue: back to the creation, in the recorded reconcile that ran.
    const earlier = await stopped(dc, () => dc.reverseContinueRequest({ threadId: 1 }));
    assert.match(earlier.body.description ?? '', /unset → /);
    assert.ok((await scope(dc, (await topFrame(dc, 1)).id, 'Writes')).some((w) => w.name === '0: create ConfigMap default/front-ports'));
  } finally {
    await dc.stop();
  }
});

test('Reverse Continue honours a hit condition: the reconcile counted first, where it did not stop, is passed over', { timeout: 60_000 }, async () => {
  const dc = await startClient();
  try {
    const second = await stopped(dc, () => launch(dc, { controller: CONTROLLER, scenario: SCENARIO }, { functionBreakpoints: [{ name: 'Service default/front', hitCondition: '2' }] }));
    assert.equal(second.body.reason, 'breakpoint');
    assert.match((await topFrame(dc, 1)).name, /^reconcile Service default\/front #5 /);
    // front's first reconcile (#2) was hit 1: the breakpoint did not stop there going forward.
    const back = await stopped(dc, () => dc.reverseContinueRequest({ threadId: 1 }));
    assert.equal(back.body.reason, 'step');
    assert.match((await topFrame(dc, 1)).name, /^reconcile Service default\/kubernetes #1 /);
  } finally {
    await dc.stop();
  }
});

test('a write that lands while stopped at another worker\'s data breakpoint stops next, not lost', { timeout: 60_000 }, async () => {
  const dc = await startClient();
  try {
    const bps = [{ name: 'ConfigMap default/front-ports .data.service' }, { name: 'ConfigMap default/back-ports .data.service' }];
    const first = await stopped(dc, () => launch(dc, { controller: FIXTURE('twoWorkers.ts'), scenario: SCENARIO }, { functionBreakpoints: bps }));
    assert.match(first.body.description ?? "", /^ConfigMap default\/front-ports \.data\.service: unset → "front"/);
    // back's reconcile got past the gate before that stop; its write came while stopped.
    await new Promise((r) => setTimeout(r, 1200));
    const second = await stopped(dc, () => dc.continueRequest({ threadId: first.body.threadId ?? 1 }));
    assert.equal(second.body.reason, 'data breakpoint');
    assert.match(second.body.description ?? '', /^ConfigMap default\/back-ports \.data\.service: unset → "back" \(rv \d+\), by this reconcile's create/);
  } finally {
    await dc.stop();
  }
});
