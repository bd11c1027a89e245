import { test } from 'node:test';
import assert from 'node:assert/strict';
import { age, padded, timestampMs } from '../../../src/cli/output.ts';

// The pieces of `watch`'s event lines: read fast, they must read exactly as Date.parse and padEnd do.

test('timestampMs reads Kubernetes timestamps as Date.parse does, odd ones included', () => {
  const cases = [
    '2026-01-01T00:00:00Z', '1999-12-31T23:59:59Z', '2024-02-29T12:34:56Z', '1970-01-01T00:00:00Z',
    '2026-11-28T04:10:31.123Z', '2026-11-28T04:10:31+02:00', '2026-13-01T00:00:00Z', '2026-02-30T00:00:00Z',
    '2026-01-01T24:00:00Z', '2026-01-01X00:00:00Z', '2026-01-01T00:00:0aZ', 'not a time', '',
  ];
  for (const text of cases) assert.deepEqual(timestampMs(text), Date.parse(text), text);
});

test('ages and padding as kubectl prints them', () => {
  const now = Date.parse('2026-01-02T00:00:00Z');
  assert.equal(age('2026-01-01T23:59:18Z', now), '42s');
  assert.equal(age('2026-01-01T00:00:00Z', now), '24h');
  assert.equal(age(undefined, now), '<unknown>');
  assert.equal(padded('ADDED', 8), 'ADDED   ');
  assert.equal(padded('a-much-longer-name', 8), 'a-much-longer-name');
});

test('BatchedWriter writes every line once, in order, across batches and with long lines', async () => {
  const { BatchedWriter } = await import('../../../src/cli/output.ts');
  const { Writable } = await import('node:stream');
  const chunks: Buffer[] = [];
  const sink = new Writable({ write: (chunk: Buffer, _enc, cb) => (chunks.push(Buffer.from(chunk)), cb()) });
  const out = new BatchedWriter(sink);
  const lines = Array.from({ length: 5000 }, (_, i) => (i % 997 === 0 ? `long ${'é'.repeat(100_000)} ${i}` : `line ${i} ✓`));
  for (const l of lines.slice(0, 2500)) out.line(l);
  await new Promise((r) => setImmediate(r));
  for (const l of lines.slice(2500)) out.line(l);
  await new Promise<void>((r) => out.flush(r));
  assert.equal(Buffer.concat(chunks).toString('utf8'), `${lines.join('\n')}\n`);
});
