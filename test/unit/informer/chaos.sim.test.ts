import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runChaos } from './chaosHarness.ts';
import type { ChaosReport } from './chaosHarness.ts';
import { simBackend } from './fixtures/simBackend.ts';

// The same chaos convergence property, against the simulated cluster in process. CHAOS_SEED=<seed>
// replays one run; CHAOS_SIM_RUNS widens the sweep.

const RUNS = Number(process.env.CHAOS_SIM_RUNS ?? 100);
const ONLY = process.env.CHAOS_SEED === undefined ? undefined : Number(process.env.CHAOS_SEED);
const BASE_SEED = 0x5100;

describe('chaos convergence (simulated cluster, in process)', () => {
  it(`${ONLY === undefined ? RUNS : 1} seeded runs converge to the sim's state with consistent handler histories`, async () => {
    const seeds = ONLY === undefined ? Array.from({ length: RUNS }, (_, i) => BASE_SEED + i) : [ONLY];
    const reports: ChaosReport[] = [];
    for (const seed of seeds) reports.push(await runChaos({ seed, backend: simBackend }));
    if (ONLY !== undefined) return;
    const total = (what: string): number => reports.reduce((n, r) => n + (r.coverage[what] ?? 0), 0);
    assert.ok(total('expired:event') >= 10, `only ${total('expired:event')} expired watches`);
    assert.ok(total('relist') >= 10);
  });
});
