import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runChaos } from './chaosHarness.ts';
import type { ChaosReport } from './chaosHarness.ts';
import { httpSimBackend } from './fixtures/httpSimBackend.ts';

// The chaos convergence property over loopback HTTP (sim server + HTTP ListerWatcher). Real sockets
// make each run cost ~0.5 s, so the default sweep is small: CHAOS_HTTP_RUNS widens it,
// CHAOS_SEED=<seed> replays one run.

const RUNS = Number(process.env.CHAOS_HTTP_RUNS ?? 12);
const ONLY = process.env.CHAOS_SEED === undefined ? undefined : Number(process.env.CHAOS_SEED);
const BASE_SEED = 0x4770;

describe('chaos convergence (simulated cluster over loopback HTTP)', () => {
  it(`${ONLY === undefined ? RUNS : 1} seeded runs converge to the server's state with consistent handler histories`, async () => {
    const seeds = ONLY === undefined ? Array.from({ length: RUNS }, (_, i) => BASE_SEED + i) : [ONLY];
    const reports: ChaosReport[] = [];
    // Socket delivery on a loaded machine can lag: allow many short quiescence rounds.
    for (const seed of seeds) reports.push(await runChaos({ seed, backend: httpSimBackend, maxQuiesceRounds: 300 }));
    if (ONLY !== undefined) return;
    const total = (what: string): number => reports.reduce((n, r) => n + (r.coverage[what] ?? 0), 0);
    assert.ok(total('watchOpen') > RUNS, 'watches were reopened');
    assert.ok(total('event') > 0);
  });
});
