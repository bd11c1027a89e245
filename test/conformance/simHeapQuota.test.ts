// A `controller-lab sim` process whose heap fills up says so instead of dying: past its quota,
// creates are answered etcd's 500 "database space exceeded", /readyz and a line on stderr say why,
// and reads and deletes go on. Here the heap limit is small (160 MB), so it fills in seconds.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rawRequest, startSimProcess, type SimProcess } from './simProcess.ts';

const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';

/** A ConfigMap of ~900 KB of data that no other shares. */
function bigConfigMap(i: number): string {
  const data: Record<string, string> = {};
  for (let k = 0; k < 9; k++) data[`k${k}`] = `${i}-${k}-`.repeat(20_000).slice(0, 100_000);
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `big-${i}` }, data });
}

describe('controller-lab sim near its heap limit', () => {
  let sim: SimProcess;
  before(async () => {
    sim = await startSimProcess([], undefined, 'source', ['--max-old-space-size=160']);
  });
  after(() => sim.stop());

  it('refuses creates with etcd\'s "database space exceeded" past its quota, says why, and keeps serving', async () => {
    assert.match(sim.output(), /Heap: limit \d+ MB; writes are refused past \d+ MB/);
    let refused: { status: number; body: string } | undefined;
    let created = 0;
    for (let i = 0; i < 400 && !refused; i++) {
      const r = await rawRequest(sim, 'POST', CONFIGMAPS, { body: bigConfigMap(i), headers: { 'Content-Type': 'application/json' } }).catch(async (e: Error) => {
        // A reset connection: say whether the sim died, and its last words.
        await new Promise((done) => setTimeout(done, 500));
        throw new Error(`create ${i} (${created} accepted): ${e.message}; the sim ${sim.process.exitCode === null ? 'still runs' : `exited ${sim.process.exitCode ?? sim.process.signalCode}`}; its output ends:\n${sim.output().slice(-1500)}`);
      });
      if (r.status === 201) created++;
      else refused = r;
    }
    assert.ok(refused, `${created} creates of 900 KB all accepted within a 160 MB heap`);
    assert.equal(refused.status, 500, refused.body);
    assert.equal(JSON.parse(refused.body).message, 'etcdserver: mvcc: database space exceeded');
    assert.equal(sim.process.exitCode, null, 'the sim is still running');

    const ready = await rawRequest(sim, 'GET', '/readyz?verbose');
    assert.equal(ready.status, 500);
    assert.match(ready.body, /\[-\]heap failed: etcdserver: mvcc: database space exceeded: the heap holds \d+ MB of its \d+ MB limit/);
    assert.match(sim.output(), /controller-lab sim: etcdserver: mvcc: database space exceeded: the heap holds/);
    assert.equal((await rawRequest(sim, 'GET', `${CONFIGMAPS}/big-0`)).status, 200);
    assert.equal((await rawRequest(sim, 'GET', '/livez')).status, 200);

    // Deleting makes room: once a full collection finds the heap below 60% of its limit, creates are taken again.
    for (let i = 0; i < created; i++) assert.equal((await rawRequest(sim, 'DELETE', `${CONFIGMAPS}/big-${i}`)).status, 200);
    let again = 0;
    for (let i = 0; i < 100 && again !== 201; i++) {
      again = (await rawRequest(sim, 'POST', CONFIGMAPS, { body: bigConfigMap(1000 + i), headers: { 'Content-Type': 'application/json' } })).status;
    }
    assert.equal(again, 201, 'creates are taken again after deletes');
    assert.match(sim.output(), /the heap is back within its quota: writes are taken again/);
  });
});
