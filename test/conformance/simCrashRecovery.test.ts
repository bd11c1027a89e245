// kill -9 in the middle of write bursts, then a restart from the same --state-dir, twice: every write
// that got a 2xx answer is there as answered, resourceVersions never go back, and an informer that
// kept running across both restarts ends with exactly the server's objects (no ghosts, none missing).
import { after, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSharedInformer } from '../../src/informer/index.ts';
import { loadCluster } from '../../src/kube/cluster.ts';
import type { ApiResource, KubeObject } from '../../src/shared/k8s.ts';
import { freePort, killLeftoverSims, startCrashableSim, type CrashableSim } from './simCrash.ts';
import { rawRequest } from './simProcess.ts';

const NS = 'chaos';
const CONFIGMAPS: ApiResource = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, shortNames: ['cm'], singularName: 'configmap', verbs: ['list', 'watch'] };

/** What the last answered write of each name left: data and RV, or deleted. */
interface Acked {
  data?: string;
  rv: number;
  deleted?: boolean;
}

const dirs: string[] = [];
after(async () => {
  killLeftoverSims();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function list(sim: CrashableSim): Promise<{ rv: number; items: Map<string, { data: string; rv: number }> }> {
  const r = await rawRequest(sim.endpoint, 'GET', `/api/v1/namespaces/${NS}/configmaps`);
  assert.equal(r.status, 200, r.body);
  const body = JSON.parse(r.body) as { metadata: { resourceVersion: string }; items: KubeObject[] };
  return {
    rv: Number(body.metadata.resourceVersion),
    items: new Map(body.items.map((i) => [i.metadata.name!, { data: (i as { data?: { v?: string } }).data?.v ?? '', rv: Number(i.metadata.resourceVersion) }])),
  };
}

/**
 * Workers each own their names and write them in turn (create, update, sometimes delete). Once
 * `killAfter` writes were answered the sim is killed with writes still in flight.
 */
async function burst(sim: CrashableSim, round: number, acked: Map<string, Acked>, inFlight: Set<string>, killAfter: number): Promise<number> {
  let answered = 0;
  let maxRv = 0;
  let killing: Promise<void> | undefined;
  const worker = async (w: number) => {
    for (let i = 0; !killing; i++) {
      const name = `r${round}-w${w}-${i}`;
      const steps: [string, string, object | undefined, string][] = [
        ['POST', `/api/v1/namespaces/${NS}/configmaps`, { metadata: { name }, data: { v: 'created' } }, 'created'],
        ['PUT', `/api/v1/namespaces/${NS}/configmaps/${name}`, { metadata: { name }, data: { v: 'updated' } }, 'updated'],
      ];
      if (i % 3 === 0) steps.push(['DELETE', `/api/v1/namespaces/${NS}/configmaps/${name}`, undefined, 'deleted']);
      for (const [method, path, body, value] of steps) {
        inFlight.add(name);
        let r;
        try {
          r = await rawRequest(sim.endpoint, method, path, body ? { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } } : {});
        } catch {
          return; // the process is gone: this write's fate is unknown, and `name` stays in flight
        }
        if (r.status < 200 || r.status > 299) return;
        inFlight.delete(name);
        // A delete is answered with a Status naming the object (as kube-apiserver answers it), without a resourceVersion.
        const rv = Number((JSON.parse(r.body) as Partial<KubeObject>).metadata?.resourceVersion ?? NaN);
        acked.set(name, value === 'deleted' ? { rv, deleted: true } : { rv, data: value });
        if (Number.isFinite(rv)) maxRv = Math.max(maxRv, rv);
        if (++answered === killAfter) killing = sim.kill9();
      }
    }
  };
  await Promise.all(Array.from({ length: 12 }, (_, w) => worker(w)));
  await killing;
  return maxRv;
}

it('kill -9 during write bursts loses no acknowledged write, never moves resourceVersions back, and leaves informers equal to the server', { timeout: 180_000 }, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'sim-crash-'));
  dirs.push(dir);
  const port = await freePort();
  let sim = await startCrashableSim(dir, port);
  assert.equal((await rawRequest(sim.endpoint, 'POST', '/api/v1/namespaces', { body: JSON.stringify({ metadata: { name: NS } }) })).status, 201);

  const cluster = loadCluster({ kubeconfig: sim.kubeconfigPath });
  const informer = createSharedInformer<KubeObject>({ name: 'chaos', listerWatcher: cluster.listerWatcher(CONFIGMAPS, { namespace: NS }) });
  informer.run();
  try {
    assert.ok(await informer.waitForSync());
    const acked = new Map<string, Acked>();
    const inFlight = new Set<string>();
    let highestSeen = 0;
    for (let round = 0; round < 2; round++) {
      highestSeen = Math.max(highestSeen, await burst(sim, round, acked, inFlight, 150 + round * 50));
      sim = await startCrashableSim(dir, port);

      const state = await list(sim);
      assert.ok(state.rv >= highestSeen, `round ${round}: head RV ${state.rv} went back below ${highestSeen}`);
      let checked = 0;
      for (const [name, a] of acked) {
        if (inFlight.has(name)) continue; // a write to it was unanswered at the kill: either outcome is right
        const found = state.items.get(name);
        if (a.deleted) assert.equal(found, undefined, `round ${round}: ${name} was deleted (answered 200) but is back`);
        else assert.deepEqual(found, { data: a.data, rv: a.rv }, `round ${round}: ${name} lost its acknowledged write`);
        checked++;
      }
      assert.ok(checked >= 40, `only ${checked} names with answered writes to check`);
    }

    // The informer saw writes that were answered and maybe some that were lost; it must converge.
    const server = await list(sim);
    const deadline = Date.now() + 60_000;
    const cached = () => new Map(informer.indexer.list().map((o) => [o.metadata.name!, Number(o.metadata.resourceVersion)]));
    const expected = new Map([...server.items].map(([n, v]) => [n, v.rv]));
    while (Date.now() < deadline) {
      if (informer.lastSyncResourceVersion() === String(server.rv) && JSON.stringify([...cached()].sort()) === JSON.stringify([...expected].sort())) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const ghosts = [...cached().keys()].filter((k) => !expected.has(k));
    const missing = [...expected.keys()].filter((k) => !cached().has(k));
    assert.deepEqual({ ghosts, missing }, { ghosts: [], missing: [] }, 'informer cache vs server');
    assert.deepEqual(cached(), expected, 'every cached object at the server\'s resourceVersion');
  } finally {
    informer.stop();
    cluster.close();
    assert.equal(await sim.stop(), 0, sim.output());
  }
});
