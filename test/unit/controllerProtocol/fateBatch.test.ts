import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deserialize, serialize } from 'node:v8';
import { decodeFateBatch, FateBatchWriter } from '../../../src/controllerProtocol/fateBatch.ts';
import type { EventFate } from '../../../src/controllerProtocol/records.ts';
import { HostSender } from '../../../src/host/hostSender.ts';
import type { HostMessage } from '../../../src/controllerProtocol/protocol.ts';
import { FateLog } from '../../../src/runtime/fateLog.ts';

// Fates travel as one string per batch: whatever the strings in a fate, they come back as they were.

const base: EventFate = { controller: 'web', type: 'MODIFIED', apiVersion: 'apps/v1', kind: 'Deployment', key: 'default/web', resourceVersion: '12', via: 'for', fate: 'enqueued', request: 'default/web', at: 1_700_000_000_000 };

const roundTrip = (fates: EventFate[]): EventFate[] => {
  const w = new FateBatchWriter();
  for (const f of fates) w.add(f);
  assert.equal(w.count, fates.length);
  return decodeFateBatch(w.finish());
};

test('every fate kind and optional field comes back as it was', () => {
  const fates: EventFate[] = [
    base,
    { ...base, fate: 'merged', keyState: 'queued', at: base.at + 3 },
    { ...base, fate: 'merged', keyState: 'processing', at: base.at + 3 },
    { ...base, fate: 'waiting', backoffMs: 1234.5, keyState: 'waiting', at: base.at + 10 },
    { ...base, fate: 'enqueued', keyState: 'waiting', backoffMs: 0, at: base.at + 11 },
    { ...base, type: 'RESYNC', fate: 'filtered', request: undefined, predicate: 'GenerationChangedPredicate', at: base.at + 12 },
    { ...base, via: 'owns', kind: 'Pod', apiVersion: 'v1', key: 'default/web-1', fate: 'unmapped', request: undefined, at: base.at + 12 },
    { ...base, via: 'watches', kind: 'ConfigMap', apiVersion: 'v1', key: 'default/settings', request: 'default/web', at: base.at },
    { ...base, controller: 'other', type: 'DELETED', at: base.at + 20 },
  ].map((f) => JSON.parse(JSON.stringify(f)) as EventFate);
  assert.deepEqual(roundTrip(fates), fates);
});

test('odd strings survive: separators, escapes, unicode, empty', () => {
  const odd = ['', '\t', '\n', '\\', '\\t', '\\n', 'a\tb\nc\\d', '+', '+x', 'C', 'e', 'ns/😀-ñ-中文', '\u2028\u2029', '\r\n', ' lead and trail ', '\0nul'];
  const fates: EventFate[] = [];
  for (const s of odd) {
    fates.push({ ...base, key: s, request: s, resourceVersion: s });
    fates.push({ ...base, controller: s, apiVersion: s, kind: s, key: s, resourceVersion: s, request: `${s}/other` });
    fates.push({ ...base, key: s, fate: 'filtered', request: undefined, predicate: s });
  }
  const clean = fates.map((f) => Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined)) as unknown as EventFate);
  assert.deepEqual(roundTrip(clean), clean);
});

test('a request different from the key, and an empty one, are kept', () => {
  const fates: EventFate[] = [{ ...base, key: 'default/settings', request: 'default/web' }, { ...base, request: '' }];
  assert.deepEqual(roundTrip(fates), fates);
});

test('malformed records are skipped, the rest decoded', () => {
  const w = new FateBatchWriter();
  w.add(base);
  const good = w.finish();
  const decoded = decodeFateBatch(`x\ty\n${good}e\tonly-two\n\n`);
  assert.deepEqual(decoded, [base]);
  assert.deepEqual(decodeFateBatch('e\tno\tcontext\t\t\t\t0\n'), []);
});

test('the host sends fates as one batch string; the log decodes it only when asked', () => {
  const sent: HostMessage[] = [];
  const sender = new HostSender((m) => sent.push(structuredCloneLikeIpc(m)));
  sender.send({ type: 'log', reconcileId: 'r1', line: { level: 'info', message: 'hi', at: 1 } });
  for (let i = 0; i < 3; i++) sender.send({ type: 'fate', fate: { ...base, resourceVersion: String(i), at: base.at + i } });
  sender.send({ type: 'delta', delta: { type: 'ADDED', kind: 'Deployment', key: 'default/web', resourceVersion: '2', at: 1 } as never });
  sender.flush();
  const messages = sent.flatMap((m) => (m.type === 'batch' ? m.messages : [m]));
  assert.deepEqual(messages.map((m) => m.type), ['log', 'fates', 'delta']);
  const fates = messages.filter((m) => m.type === 'fates');
  assert.equal(fates.length, 1);
  const [batch] = fates as Extract<HostMessage, { type: 'fates' }>[];
  assert.equal(batch?.count, 3);
  const log = new FateLog();
  log.addBatch(batch?.data ?? '', batch?.count ?? 0);
  assert.equal(log.count, 3);
  assert.deepEqual(log.about('deployment', 'default/web').map((f) => f.resourceVersion), ['0', '1', '2']);
  // A fate added one by one after batches keeps the order it came in.
  log.add({ ...base, resourceVersion: '3' });
  assert.deepEqual(log.about('Deployment', 'default/web').map((f) => f.resourceVersion), ['0', '1', '2', '3']);
});

/** What the IPC channel (serialization 'advanced') does to a message. */
function structuredCloneLikeIpc(m: HostMessage): HostMessage {
  return deserialize(serialize(m)) as HostMessage;
}

/** The batch both languages write for the same fates (go/controllerlab/fatebatch_test.go holds the same string). */
const SHARED_BATCH =
  'C\tapp-config\tMODIFIED\tapps/v1\tDeployment\tfor\ne\tdefault/web\t12\t\t\t\t1700000000000\nm\tdefault/web\t13\t\tq\t\t2\nC\tapp-config\tMODIFIED\tv1\tConfigMap\twatches\nw\tdefault/ñ\\tb\t14\t+default/web\tw\t12.5\t0\nC\tapp-config\tRESYNC\tv1\tConfigMap\towns\nf\tdefault/x\t15\t+a\\\\b\\nc\t\t\t38\nu\tdefault/y\t16\t\t\t\t1\n';

test('the batch is the one the Go module writes for the same fates', () => {
  const at = 1_700_000_000_000;
  const ctx = { controller: 'app-config', type: 'MODIFIED', apiVersion: 'apps/v1', kind: 'Deployment', via: 'for' } as const;
  const fates: EventFate[] = [
    { ...ctx, key: 'default/web', resourceVersion: '12', fate: 'enqueued', request: 'default/web', at },
    { ...ctx, key: 'default/web', resourceVersion: '13', fate: 'merged', request: 'default/web', keyState: 'queued', at: at + 2 },
    { ...ctx, apiVersion: 'v1', kind: 'ConfigMap', via: 'watches', key: 'default/ñ\tb', resourceVersion: '14', fate: 'waiting', request: 'default/web', keyState: 'waiting', backoffMs: 12.5, at: at + 2 },
    { ...ctx, type: 'RESYNC', apiVersion: 'v1', kind: 'ConfigMap', via: 'owns', key: 'default/x', resourceVersion: '15', fate: 'filtered', predicate: 'a\\b\nc', at: at + 40 },
    { ...ctx, type: 'RESYNC', apiVersion: 'v1', kind: 'ConfigMap', via: 'owns', key: 'default/y', resourceVersion: '16', fate: 'unmapped', at: at + 41 },
  ];
  const w = new FateBatchWriter();
  for (const f of fates) w.add(f);
  assert.equal(w.finish(), SHARED_BATCH);
  assert.deepEqual(decodeFateBatch(SHARED_BATCH), fates);
});
