import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runChaos } from './chaosHarness.ts';
import type { ChaosReport } from './chaosHarness.ts';
import { loopbackSimBackend } from './fixtures/loopbackSimBackend.ts';

// The same chaos property as chaos.test.ts, over a real socket: our informer and HTTP
// ListerWatcher against the simulated cluster served over HTTPS with its token. A failure names its
// seed: CHAOS_SEED=<seed> replays it; CHAOS_LOOPBACK_RUNS widens or narrows the sweep.

const RUNS = Number(process.env.CHAOS_LOOPBACK_RUNS ?? 200);
const ONLY = process.env.CHAOS_SEED === undefined ? undefined : Number(process.env.CHAOS_SEED);
const BASE_SEED = 0x10ba;

describe('chaos convergence (simulated cluster over loopback HTTPS)', () => {
  it(`${ONLY === undefined ? RUNS : 1} seeded runs end with the cache equal to the server`, async () => {
    const seeds = ONLY === undefined ? Array.from({ length: RUNS }, (_, i) => BASE_SEED + i) : [ONLY];
    const reports: ChaosReport[] = [];
    for (const seed of seeds) reports.push(await runChaos({ seed, backend: loopbackSimBackend, steps: 40 }));

    if (ONLY !== undefined) return;
    const total = (what: string): number => reports.reduce((n, r) => n + (r.coverage[what] ?? 0), 0);
    // 410s arrive as ERROR events in a 200 stream (watch). A relist then lists at the informer's
    // version, whole, which the sim serves as the watch cache does (no 410, no continue token to
    // expire): chaos.test.ts's source and reflector.test.ts cover HTTP 410s on lists.
    for (const what of ['expired:event', 'relist', 'backoff', 'listPage', 'synced']) {
      assert.ok(total(what) >= RUNS / 20, `only ${total(what)} × ${what} across the sweep`);
    }
  });
});
