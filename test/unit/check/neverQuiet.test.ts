import { test } from 'node:test';
import assert from 'node:assert/strict';
import { neverQuietFinding } from '../../../src/check/findings/judge.ts';
import type { CommittedWrite } from '../../../src/check/run/controllerWrites.ts';
import type { RunResult } from '../../../src/check/run/checkRun.ts';

// A run that never went quiet names what kept it busy: the writes of its last seconds, or, when
// it wrote nothing then, the keys it kept reconciling — not a write it made long before.

const annotate = (atMs: number): CommittedWrite =>
  ({ verb: 'update', kind: 'ConfigMap', group: '', resource: 'configmaps', namespace: 'default', name: 'mirror', pointName: 'mirror', resourceVersion: '9', object: { metadata: { name: 'mirror', namespace: 'default' } }, byController: true, atMs }) as CommittedWrite;
const reconcile = (seq: number) => ({ incarnation: 1, record: { seq, key: 'default/mirror', controller: 'poller', trigger: [], writes: [] } });

test('a controller that wrote once, early, then reconciled without end: its queue, not a write loop', () => {
  const run = { writes: [annotate(1_000)], reconciles: [1, 2, 3].map(reconcile), endedAtMs: 120_000 } as unknown as RunResult;
  const f = neverQuietFinding(run, undefined, 'replay');
  assert.match(f.summary, /never went quiet: its queue never emptied \(reconciles without end, the last of default\/mirror, writing nothing\)/);
  assert.doesNotMatch(f.summary, /kept writing/);
});

test('a controller still writing at the end: the writes it kept making', () => {
  const run = { writes: [annotate(118_000), annotate(119_500)], reconciles: [reconcile(1)], endedAtMs: 120_000 } as unknown as RunResult;
  assert.match(neverQuietFinding(run, undefined, 'replay').summary, /kept writing update ConfigMap default\/mirror/);
});
