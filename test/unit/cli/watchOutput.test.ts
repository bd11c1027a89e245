import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { age, timestampMs } from '../../../src/cli/age.ts';
import { BatchedWriter } from '../../../src/cli/output.ts';

// The pieces of `watch`'s event lines: read fast, they must read exactly as Date.parse and padEnd do.

test('timestampMs reads Kubernetes timestamps as Date.parse does, odd ones included', () => {
  const cases = [
    '2026-01-01T00:00:00Z', '1999-12-31T23:59:59Z', '2024-02-29T12:34:56Z', '1970-01-01T00:00:00Z',
    '2026-11-28T04:10:31.123Z', '2026-11-28T04:10:31+02:00', '2026-13-01T00:00:00Z', '2026-02-30T00:00:00Z',
    '2026-01-01T24:00:00Z', '2026-01-01X00:00:00Z', '2026-01-01T00:00:0aZ', 'not a time', '',
  ];
  for (const text of cases) assert.deepEqual(timestampMs(text), Date.parse(text), text);
  // Every day of the year under each leap rule, before 1970 too.
  for (const year of [0, 50, 100, 1600, 1700, 1899, 1900, 1969, 1970, 2000, 2024, 2025, 2100, 2400, 9999]) {
    for (let day = Date.UTC(2001, 0, 1); day < Date.UTC(2002, 0, 1); day += 86_400_000) {
      const d = new Date(day);
      const text = `${String(year).padStart(4, '0')}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-${String(d.getUTCDate()).padStart(2, '0')}T23:59:58Z`;
      assert.equal(timestampMs(text), Date.parse(text), text);
    }
    for (const text of [`${String(year).padStart(4, '0')}-02-29T00:00:00Z`, `${String(year).padStart(4, '0')}-02-31T12:00:00Z`]) assert.deepEqual(timestampMs(text), Date.parse(text), text);
  }
});

test('ages as kubectl prints them', () => {
  const now = Date.parse('2026-01-02T00:00:00Z');
  assert.equal(age('2026-01-01T23:59:18Z', now), '42s');
  assert.equal(age('2026-01-01T23:58:01Z', now), '119s');
  assert.equal(age('2026-01-01T23:58:00Z', now), '2m');
  assert.equal(age('2026-01-01T22:00:01Z', now), '119m');
  assert.equal(age('2026-01-01T22:00:00Z', now), '2h');
  assert.equal(age('2026-01-01T00:00:00Z', now), '24h');
  assert.equal(age('2025-12-31T00:00:01Z', now), '47h');
  assert.equal(age('2025-12-31T00:00:00Z', now), '2d');
  assert.equal(age('2026-01-03T00:00:00Z', now), '0s');
  assert.equal(age(undefined, now), '<unknown>');
  assert.equal(age('yesterday', now), '<unknown>');
});

/** What a BatchedWriter writes to a stream, once flushed. */
async function written(write: (out: BatchedWriter) => void): Promise<string> {
  const chunks: Buffer[] = [];
  const out = new BatchedWriter(new Writable({ write: (chunk: Buffer, _enc, cb) => (chunks.push(Buffer.from(chunk)), cb()) }));
  write(out);
  await new Promise<void>((r) => out.flush(r));
  return Buffer.concat(chunks).toString('utf8');
}

test('columns pad as padEnd does, by characters, and a longer value pushes the rest right', async () => {
  const values = ['ADDED', 'a-much-longer-name', '', 'é-ünïcode', '😀x', 'x'.repeat(100), `${'ß'.repeat(70)}!`, '\ud800'];
  const text = await written((out) => {
    for (const v of values) {
      out.column(v, 8, 3);
      out.integer(42);
      out.text('s');
      out.endLine();
    }
    for (const n of [0, 7, 10, 99, 100, 123456789, 2 ** 53, -1, 1.5, NaN]) {
      out.integer(n);
      out.endLine();
    }
    // Past the first batch's room: a line may be split between two writes.
    for (let i = 0; i < 3000; i++) {
      out.column(`name-${i}`, 40, 3);
      out.integer(i);
      out.endLine();
    }
  });
  const expected = [
    ...values.map((v) => `${v.padEnd(8)}   42s`),
    ...['0', '7', '10', '99', '100', '123456789', String(2 ** 53), '-1', '1.5', 'NaN'],
    ...Array.from({ length: 3000 }, (_, i) => `${`name-${i}`.padEnd(40)}   ${i}`),
  ];
  // As one string per line encoded whole would read (a lone surrogate becomes U+FFFD either way).
  assert.equal(text, Buffer.from(`${expected.join('\n')}\n`).toString('utf8'));
});

test('BatchedWriter writes every line once, in order, across batches and with long lines', async () => {
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

test("BatchedWriter's clock is read once per batch: the lines of one turn share it", async () => {
  const out = new BatchedWriter(new Writable({ write: (_chunk, _enc, cb) => cb() }));
  const first = out.now();
  out.line('a');
  while (Date.now() < first + 5) {
    // the same turn, later
  }
  assert.equal(out.now(), first, 'the batch is still gathering');
  await new Promise((r) => setImmediate(r));
  assert.ok(out.now() >= first + 5, 'a new batch reads the clock again');
});
