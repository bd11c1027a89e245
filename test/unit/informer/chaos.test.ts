import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runChaos } from './chaosHarness.ts';
import type { ChaosReport } from './chaosHarness.ts';
import { fakeBackend } from './fixtures/fakeBackend.ts';

// ≥ 200 seeded runs against the in-memory backend. A failure names its seed: set CHAOS_SEED=<seed>
// to replay exactly that run. CHAOS_RUNS widens the sweep.

const RUNS = Number(process.env.CHAOS_RUNS ?? 200);
const ONLY = process.env.CHAOS_SEED === undefined ? undefined : Number(process.env.CHAOS_SEED);
const BASE_SEED = 0x5eed;

describe('chaos convergence (in-memory backend)', () => {
  it(`${ONLY === undefined ? RUNS : 1} seeded runs converge to the server state with consistent handler histories`, async () => {
    const seeds = ONLY === undefined ? Array.from({ length: RUNS }, (_, i) => BASE_SEED + i) : [ONLY];
    const reports: ChaosReport[] = [];
    for (const seed of seeds) reports.push(await runChaos({ seed, backend: fakeBackend }));

    // The sweep must actually exercise what it claims to.
    if (ONLY !== undefined) return;
    const total = (what: string): number => reports.reduce((n, r) => n + (r.coverage[what] ?? 0), 0);
    for (const what of ['expired:http', 'expired:event', 'relist', 'backoff', 'listPage', 'synced']) {
      assert.ok(total(what) >= 20, `only ${total(what)} × ${what} across the sweep`);
    }
    assert.ok(reports.filter((r) => (r.coverage['fault:expireContinueTokens@page'] ?? 0) > 0).length >= 20, 'expired continue tokens mid-list');
    assert.ok(reports.some((r) => r.stats.malformed > 0));
    assert.ok(reports.some((r) => r.stats.deltas > 0 && r.stats.relists > 2));
  });
});
