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

test("a controller fighting the cluster's own controller: the object it kept writing first, how often, and who wrote it back", () => {
  const w = (verb: 'create' | 'delete', name: string, atMs: number, writer?: string) =>
    ({ verb, kind: 'ConfigMap', group: '', resource: 'configmaps', namespace: 'registry', name, pointName: name, resourceVersion: '9', object: { metadata: { name, namespace: 'registry' } }, byController: !writer, ...(writer ? { writer } : {}), atMs }) as CommittedWrite;
  const writes = [w('create', 'default.web', 10)];
  for (let i = 0; i < 3; i++) writes.push(w('delete', 'kube-root-ca.crt', 20 + i * 2), w('create', 'kube-root-ca.crt', 21 + i * 2, 'root-ca-cert-publisher'));
  const run = { writes, reconciles: [reconcile(1)], endedAtMs: 100 } as unknown as RunResult;
  assert.equal(
    neverQuietFinding(run, undefined, 'replay').summary,
    'the controller never went quiet: it kept writing delete ConfigMap registry/kube-root-ca.crt (3 times); create ConfigMap registry/default.web, with root-ca-cert-publisher writing ConfigMap registry/kube-root-ca.crt back in between',
  );
});

test('a controller idle at the end, the run waiting on a watch: that watch, not a queue that never emptied', () => {
  const run = { writes: [annotate(1_000)], reconciles: [1, 2, 3].map(reconcile), endedAtMs: 20_000, notQuietBecause: 'it was idle, but its watch of configmaps (every namespace) never opened again' } as unknown as RunResult;
  const f = neverQuietFinding(run, { kind: 'crash-after-write', write: { verb: 'update', kind: 'ConfigMap', namespace: 'default', name: 'mirror', occurrence: 1 } }, 'replay');
  assert.match(f.summary, /the controller never went quiet: it was idle, but its watch of configmaps \(every namespace\) never opened again$/);
  assert.doesNotMatch(f.summary, /queue never emptied/);
});
