import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import { RS_CONTROLLER, RS_SCENARIO, launch, scope, startClient, topFrame, valueOf } from './dapClient.ts';
import { mergePatch } from './simHttpWrite.ts';

// Data breakpoints on cluster state, TypeScript: the replicaset example against the sim. The
// controller writes `.status.replicas`; the scenario scales web (3 → 2 → 1) from outside.

const DIR = mkdtempSync(join(tmpdir(), 'cl-databp-'));
process.on('exit', () => rmSync(DIR, { recursive: true, force: true }));
const SCALING = join(DIR, 'scaling.yaml');
writeFileSync(SCALING, `# web is scaled from outside twice, so its replicas change 3 → 2 → 1.
seed: 3
objects:
  - apiVersion: apps/v1
    kind: ReplicaSet
    metadata: { name: web, namespace: default, labels: { app: web } }
    spec:
      replicas: 3
      selector: { matchLabels: { app: web } }
      template: { metadata: { labels: { app: web } }, spec: { containers: [{ name: web, image: "nginx:1.25" }] } }
steps:
  - at: 1s
    patch: { target: { apiVersion: apps/v1, kind: ReplicaSet, namespace: default, name: web }, patch: { spec: { replicas: 2 } } }
  - after: 1s
    patch: { target: { apiVersion: apps/v1, kind: ReplicaSet, namespace: default, name: web }, patch: { spec: { replicas: 1 } } }
`);

/** A Pod nobody owns: the replicaset controller watches Pods but maps this one to no ReplicaSet. */
const LONER = join(DIR, 'loner.yaml');
writeFileSync(LONER, `# A Pod no ReplicaSet owns, relabelled from outside: the change triggers no reconcile.
seed: 3
objects:
  - apiVersion: apps/v1
    kind: ReplicaSet
    metadata: { name: web, namespace: default, labels: { app: web } }
    spec:
      replicas: 1
      selector: { matchLabels: { app: web } }
      template: { metadata: { labels: { app: web } }, spec: { containers: [{ name: web, image: "nginx:1.25" }] } }
  - apiVersion: v1
    kind: Pod
    metadata: { name: loner, namespace: default, labels: { tier: cache } }
    spec: { containers: [{ name: redis, image: "redis:7" }] }
steps:
  - at: 1s
    patch: { target: { apiVersion: v1, kind: Pod, namespace: default, name: loner }, patch: { metadata: { labels: { tier: db } } } }
`);

const STATUS_WRITE_LINE = readFileSync(RS_CONTROLLER, 'utf8').split('\n').findIndex((l) => l.includes('ctx.client.updateStatus(')) + 1;

async function stopped(dc: DebugClient, act: () => Promise<unknown>): Promise<DebugProtocol.StoppedEvent> {
  const event = dc.waitForEvent('stopped');
  await act();
  return (await event) as DebugProtocol.StoppedEvent;
}

/** The Data Breakpoint scope's (latest) entry for one watched field: before, after, changedBy. */
async function change(dc: DebugClient, frameId: number, field: string): Promise<DebugProtocol.Variable[]> {
  const rows = (await scope(dc, frameId, 'Data Breakpoint')).filter((v) => v.name === field || v.name.startsWith(`${field} · rv `));
  const row = rows.at(-1);
  if (!row) throw new Error(`no change of ${field}`);
  return (await dc.variablesRequest({ variablesReference: row.variablesReference })).body.variables;
}

test('a data breakpoint on a field the controller writes stops at the reconcile whose write changed it; reverse continue goes back to the previous change', async () => {
  const dc = await startClient();
  try {
    // The scenario creates web (the sim gives it status.replicas 0): a change from outside.
    const created = await stopped(dc, () => launch(dc, { controller: RS_CONTROLLER, scenario: SCALING }, { functionBreakpoints: [{ name: 'ReplicaSet default/web .status.replicas' }] }));
    assert.equal(created.body.reason, 'data breakpoint');
    assert.match(created.body.description ?? '', /ReplicaSet default\/web \.status\.replicas: unset → 0 \(rv \d+\), outside the controller/);

    // The reconcile it triggered runs, creates three Pods and writes status 0 → 3: a stop on that reconcile.
    const first = await stopped(dc, () => dc.continueRequest({ threadId: 1 }));
    assert.equal(first.body.reason, 'data breakpoint');
    assert.match(first.body.description ?? '', new RegExp(`ReplicaSet default/web \\.status\\.replicas: 0 → 3 \\(rv \\d+\\), by this reconcile's updateStatus at controller\\.ts:${STATUS_WRITE_LINE} \\(write 4\\)`));
    const frame1 = await topFrame(dc, 1);
    // The frame points at the client call that made the change.
    assert.equal(frame1.source?.path, RS_CONTROLLER);
    assert.equal(frame1.line, STATUS_WRITE_LINE);
    assert.match(frame1.name, /^reconcile ReplicaSet default\/web #\d+/);
    // The same reconcile was triggered by the creation and wrote the status: a row for each change.
    const rows = (await scope(dc, frame1.id, 'Data Breakpoint')).map((v) => v.name);
    assert.equal(rows.length, 2, rows.join(', '));
    assert.ok(rows.every((r) => /^ReplicaSet default\/web \.status\.replicas · rv \d+$/.test(r)), rows.join(', '));
    const c1 = await change(dc, frame1.id, 'ReplicaSet default/web .status.replicas');
    assert.equal(valueOf(c1, 'before'), '0');
    assert.equal(valueOf(c1, 'after'), '3');
    assert.equal(valueOf(c1, 'changedBy'), `"this reconcile: updateStatus ReplicaSet default/web at controller.ts:${STATUS_WRITE_LINE} (write 4)"`);
    const writes = await scope(dc, frame1.id, 'Writes');
    assert.ok(writes.some((w) => w.name === '3: updateStatus ReplicaSet default/web'), 'the reconcile ran: its writes are there');

    // The scenario scales web to 2: the controller deletes a Pod and writes status 3 → 2.
    const second = await stopped(dc, () => dc.continueRequest({ threadId: 1 }));
    assert.equal(second.body.reason, 'data breakpoint');
    const frame2 = await topFrame(dc, 1);
    assert.ok(frame2.id > frame1.id);
    const c2 = await change(dc, frame2.id, 'ReplicaSet default/web .status.replicas');
    assert.deepEqual([valueOf(c2, 'before'), valueOf(c2, 'after')], ['3', '2']);

    // Reverse Continue: the previous change of the field, in the recorded reconcile that made it.
    const back = await stopped(dc, () => dc.reverseContinueRequest({ threadId: 1 }));
    assert.equal(back.body.reason, 'data breakpoint');
    assert.equal((await topFrame(dc, 1)).id, frame1.id);
    assert.equal(valueOf(await change(dc, frame1.id, 'ReplicaSet default/web .status.replicas'), 'after'), '3');
  } finally {
    await dc.stop();
  }
});

test('a data breakpoint on a field changed from outside stops at the reconcile the change triggered; a condition picks the change', async () => {
  const dc = await startClient();
  try {
    const stop = await stopped(dc, () =>
      launch(dc, { controller: RS_CONTROLLER, scenario: SCALING }, { functionBreakpoints: [{ name: 'ReplicaSet */w* .spec.replicas == 1' }] }),
    );
    assert.equal(stop.body.reason, 'data breakpoint');
    assert.match(stop.body.description ?? '', /ReplicaSet default\/web \.spec\.replicas: 2 → 1 \(rv \d+\), outside the controller/);
    const frame = await topFrame(dc, 1);
    assert.match(frame.name, /^reconcile ReplicaSet default\/web #\d+ · MODIFIED rv \d+$/, 'the reconcile the change triggered, held before it runs');
    const c = await change(dc, frame.id, 'ReplicaSet default/web .spec.replicas');
    assert.deepEqual([valueOf(c, 'before'), valueOf(c, 'after')], ['2', '1'], 'the condition skipped 3 → 2');
    assert.match(valueOf(c, 'changedBy') ?? '', /outside the controller/);
    assert.equal((await scope(dc, frame.id, 'Writes'))[0]?.name, '(not run yet)');
  } finally {
    await dc.stop();
  }
});

test('"Break on Value Change" on a field of the Object scope watches it (a DAP data breakpoint)', async () => {
  const dc = await startClient();
  try {
    const entry = await stopped(dc, () => launch(dc, { controller: RS_CONTROLLER, scenario: SCALING, stopOnEntry: true }));
    assert.equal(entry.body.reason, 'entry');
    const frame = await topFrame(dc, 1);
    const scopes = (await dc.scopesRequest({ frameId: frame.id })).body.scopes;
    const object = scopes.find((s) => s.name === 'Object');
    assert.ok(object);
    const spec = (await dc.variablesRequest({ variablesReference: object.variablesReference })).body.variables.find((v) => v.name === 'spec');
    assert.ok(spec);
    const info = await dc.dataBreakpointInfoRequest({ variablesReference: spec.variablesReference, name: 'replicas' });
    assert.equal(info.body.dataId, 'ReplicaSet default/web .spec.replicas');
    assert.deepEqual(info.body.accessTypes, ['write']);
    const notAField = await dc.dataBreakpointInfoRequest({ variablesReference: object.variablesReference + 1000, name: 'x' });
    assert.equal(notAField.body.dataId, null);

    const set = await dc.setDataBreakpointsRequest({ breakpoints: [{ dataId: info.body.dataId ?? '', accessType: 'write' }] });
    assert.equal(set.body.breakpoints[0]?.verified, true);
    const stop = await stopped(dc, () => dc.continueRequest({ threadId: 1 }));
    assert.equal(stop.body.reason, 'data breakpoint');
    assert.deepEqual(stop.body.hitBreakpointIds, [set.body.breakpoints[0]?.id]);
    const c = await change(dc, (await topFrame(dc, 1)).id, 'ReplicaSet default/web .spec.replicas');
    assert.deepEqual([valueOf(c, 'before'), valueOf(c, 'after')], ['3', '2']);
  } finally {
    await dc.stop();
  }
});

test('an outside change that triggers no reconcile still stops, once the controller is quiet, on the latest reconcile', async () => {
  const dc = await startClient();
  try {
    const stop = await stopped(dc, () => launch(dc, { controller: RS_CONTROLLER, scenario: LONER }, { functionBreakpoints: [{ name: 'Pod default/loner .metadata.labels.tier == "db"' }] }));
    assert.equal(stop.body.reason, 'data breakpoint');
    // Why not, and the question that answers in full: the Pod has no owner for Owns to map to.
    assert.match(stop.body.description ?? '', /Pod default\/loner \.metadata\.labels\.tier: "cache" → "db" \(rv (\d+)\), outside the controller; it triggered no reconcile: mapped to no request \(Owns\); `why Pod default\/loner@\1`/);
    const frame = await topFrame(dc, 1);
    assert.match(frame.name, /^reconcile ReplicaSet default\/web #\d+/);
    const c = await change(dc, frame.id, 'Pod default/loner .metadata.labels.tier');
    assert.match(valueOf(c, 'changedBy') ?? '', /it triggered no reconcile/);
  } finally {
    await dc.stop();
  }
});

test('a change written through the simulated cluster\'s HTTP API (as kubectl would) stops at the reconcile it triggered', async () => {
  const dc = await startClient();
  try {
    let kubeconfig = '';
    dc.on('output', (e: DebugProtocol.OutputEvent) => (kubeconfig ||= /\(kubeconfig (\S+)\)/.exec(e.body.output)?.[1] ?? ''));
    const entry = await stopped(dc, () =>
      launch(dc, { controller: RS_CONTROLLER, scenario: RS_SCENARIO, stopOnEntry: true }, { functionBreakpoints: [{ name: 'ReplicaSet default/web .metadata.labels.tier' }] }),
    );
    assert.equal(entry.body.reason, 'entry');
    assert.ok(kubeconfig, 'the Debug Console names the session cluster\'s kubeconfig');
    assert.equal(await mergePatch(kubeconfig, '/apis/apps/v1/namespaces/default/replicasets/web', { metadata: { labels: { tier: 'gold' } } }), 200);

    const stop = await stopped(dc, () => dc.continueRequest({ threadId: 1 }));
    assert.equal(stop.body.reason, 'data breakpoint');
    assert.match(stop.body.description ?? '', /ReplicaSet default\/web \.metadata\.labels\.tier: unset → "gold" \(rv \d+\), outside the controller; this reconcile is the one it triggered/);
    // web's first reconcile was still queued: the change joined its triggers.
    const frame = await topFrame(dc, 1);
    assert.match(frame.name, /^reconcile ReplicaSet default\/web #\d+ · /);
    const trigger = await scope(dc, frame.id, 'Trigger');
    assert.ok(trigger.some((t) => /^\d+: MODIFIED ReplicaSet default\/web$/.test(t.name)), trigger.map((t) => t.name).join(', '));
  } finally {
    await dc.stop();
  }
});

test('a data breakpoint on a kind the controller does not watch says it will never see a change', async () => {
  const dc = await startClient();
  try {
    const outputs: string[] = [];
    dc.on('output', (e: DebugProtocol.OutputEvent) => outputs.push(e.body.output));
    const warned = new Promise<void>((resolve) => dc.on('output', (e: DebugProtocol.OutputEvent) => e.body.output.includes('Data breakpoint') && resolve()));
    await launch(dc, { controller: RS_CONTROLLER, scenario: RS_SCENARIO, stopOnEntry: true }, { functionBreakpoints: [{ name: 'Deployment default/web .spec.replicas' }] });
    await warned;
    assert.ok(
      outputs.some((o) => o.includes('Data breakpoint "Deployment default/web .spec.replicas": the controller watches no such kind (ReplicaSet, Pod), so it never sees this field change.')),
      outputs.join(''),
    );
  } finally {
    await dc.stop();
  }
});

test('a data breakpoint set while stopped finds the earlier changes: Reverse Continue goes back to the writes before it was set', async () => {
  const dc = await startClient();
  try {
    // A reconcile breakpoint stops once the scenario has scaled web to 1 (the controller wrote status 3, then 2, meanwhile).
    const late = await stopped(dc, () => launch(dc, { controller: RS_CONTROLLER, scenario: SCALING }, { functionBreakpoints: [{ name: 'ReplicaSet default/web', condition: 'obj.spec.replicas === 1' }] }));
    assert.equal(late.body.reason, 'breakpoint');
    const at = await topFrame(dc, 1);

    const set = await dc.setDataBreakpointsRequest({ breakpoints: [{ dataId: 'ReplicaSet default/web .status.replicas', accessType: 'write' }] });
    assert.equal(set.body.breakpoints[0]?.verified, true);
    const back = await stopped(dc, () => dc.reverseContinueRequest({ threadId: 1 }));
    assert.equal(back.body.reason, 'data breakpoint');
    assert.match(back.body.description ?? '', new RegExp(`\\.status\\.replicas: 3 → 2 \\(rv \\d+\\), by this reconcile's updateStatus at controller\\.ts:${STATUS_WRITE_LINE}`));
    const writer = await topFrame(dc, 1);
    assert.ok(writer.id < at.id);
    const earlier = await stopped(dc, () => dc.reverseContinueRequest({ threadId: 1 }));
    assert.match(earlier.body.description ?? '', /\.status\.replicas: 0 → 3 /);
  } finally {
    await dc.stop();
  }
});
