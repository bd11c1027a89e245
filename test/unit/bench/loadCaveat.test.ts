import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCaveat } from '../../../bench/lib/load.ts';

// `npm run bench:watch-cli` at load 32 on 2 CPUs printed 0.92× the parse limit's CPU while printing,
// past the 0.9× goal, where a quiet machine reads 0.80×: such a run must say it cannot be read.

test('a run on a machine busier than its CPUs says its ratios read high', () => {
  const caveat = loadCaveat(32.2, 33.1, 2);
  assert.ok(caveat);
  assert.match(caveat, /Load average 33\.1 on 2 CPU\(s\)/);
  assert.match(caveat, /read high/);
});

test('the load after the run counts too: other jobs may start during it', () => {
  assert.ok(loadCaveat(0.5, 4.4, 2));
});

test('a quiet machine gets no caveat', () => {
  assert.equal(loadCaveat(1.4, 1.8, 2), undefined);
});
