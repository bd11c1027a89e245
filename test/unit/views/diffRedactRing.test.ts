import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { lineDiff, withContext } from '../../../src/views/lineDiff.ts';
import { redactSecret } from '../../../src/views/redact.ts';
import { objectToYaml } from '../../../src/views/objectYaml.ts';
import { EventRing } from '../../../src/views/timeline/eventRing.ts';
import type { NewTimelineEvent } from '../../../src/views/timeline/eventRing.ts';

describe('line diff', () => {
  it('marks changed lines and keeps the rest', () => {
    const diff = lineDiff('a\nb\nc\nd\n', 'a\nB\nc\nd\ne\n');
    assert.deepEqual(diff, [
      { op: ' ', text: 'a' },
      { op: '-', text: 'b' },
      { op: '+', text: 'B' },
      { op: ' ', text: 'c' },
      { op: ' ', text: 'd' },
      { op: '+', text: 'e' },
    ]);
  });

  it('reproduces both sides exactly (random edits)', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let round = 0; round < 200; round++) {
      const a = Array.from({ length: Math.floor(rnd() * 30) }, () => String(Math.floor(rnd() * 6)));
      const b = a.filter(() => rnd() > 0.2).flatMap((x) => (rnd() > 0.8 ? [x, String(Math.floor(rnd() * 6))] : [x]));
      const diff = lineDiff(a.join('\n'), b.join('\n'));
      assert.deepEqual(diff.filter((l) => l.op !== '+').map((l) => l.text), a);
      assert.deepEqual(diff.filter((l) => l.op !== '-').map((l) => l.text), b);
    }
  });

  it('shows only context around changes', () => {
    const before = Array.from({ length: 20 }, (_, i) => `l${i}`).join('\n');
    const after = before.replace('l10', 'L10');
    const lines = withContext(lineDiff(before, after), 2);
    assert.deepEqual(lines.map((l) => l.op + l.text), [' l8', ' l9', '-l10', '+L10', ' l11', ' l12']);
  });
});

describe('secret redaction', () => {
  const secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 's', namespace: 'default', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"data":{"password":"aHVudGVyMg=="}}' } },
    data: { password: 'aHVudGVyMg==' },
    stringData: { token: 'abc' },
  };

  it('replaces values with their sizes and keeps the keys', () => {
    const yaml = objectToYaml(secret);
    assert.match(yaml, /password: "<redacted: 7 bytes>"/);
    assert.match(yaml, /token: "<redacted: 3 bytes>"/);
    assert.doesNotMatch(yaml, /aHVudGVyMg/);
  });

  it('shows values when asked to and leaves other kinds alone', () => {
    assert.equal(redactSecret(secret, true), secret);
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { password: 'x' } };
    assert.equal(redactSecret(cm, false), cm);
  });

  it('drops managedFields from documents', () => {
    const yaml = objectToYaml({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', managedFields: [{ manager: 'kubectl' }] } });
    assert.doesNotMatch(yaml, /managedFields/);
  });
});

describe('timeline event ring', () => {
  const ev = (at: number, name = 'a'): NewTimelineEvent => ({ at, informer: 'i', resource: 'configmaps', namespace: 'default', name, type: 'MODIFIED', resourceVersion: '1' });

  it('numbers events, keeps the newest, and says what it evicted', () => {
    const ring = new EventRing(3);
    for (let i = 0; i < 5; i++) ring.push(ev(100 + i));
    assert.deepEqual(ring.all().map((e) => e.seq), [3, 4, 5]);
    assert.equal(ring.evictedThroughSeq, 2);
    assert.deepEqual(ring.since(3).map((e) => e.seq), [4, 5]);
    assert.deepEqual(ring.since(0).map((e) => e.seq), [3, 4, 5]);
    assert.equal(ring.get(2), undefined);
    assert.equal(ring.get(4)?.at, 103);
  });

  it('never lets time run backwards', () => {
    const ring = new EventRing(10);
    ring.push(ev(200));
    assert.equal(ring.push(ev(150)).at, 200);
  });

  it('resizes keeping the newest', () => {
    const ring = new EventRing(10);
    for (let i = 0; i < 10; i++) ring.push(ev(i));
    ring.resize(4);
    assert.deepEqual(ring.all().map((e) => e.seq), [7, 8, 9, 10]);
    ring.push(ev(20));
    assert.deepEqual(ring.all().map((e) => e.seq), [8, 9, 10, 11]);
  });
});
