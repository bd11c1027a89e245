import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { createSharedInformer } from '../../../src/informer/sharedInformer.ts';
import type { Probe } from '../../../src/informer/probes.ts';
import { loadCluster } from '../../../src/kube/cluster.ts';
import { FakeClock } from '../../../src/shared/clock.ts';
import type { ApiResource } from '../../../src/shared/k8s.ts';
import { configMap, scratchDir, sendJson, startLoopbackApi, writeKubeconfig } from './support/loopbackApi.ts';

// A server that lists fine but answers every watch with an ERROR 410 event. The informer must not
// list and watch again in a hot loop: client-go's reflector waits its backoff (0.8 s doubling to
// 30 s) between attempts, and says once what the server keeps doing.

const configmaps: ApiResource = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, shortNames: ['cm'], singularName: 'configmap', verbs: ['list', 'watch'] };
const PATH = '/api/v1/namespaces/default/configmaps';

function expireEveryWatch(res: ServerResponse): void {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  const status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 410, reason: 'Expired', message: 'too old resource version: 10 (11)' };
  res.end(`${JSON.stringify({ type: 'ERROR', object: status })}\n`);
}

async function realTimeUntil(cond: () => boolean, ms: number): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (!cond()) {
    if (performance.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 5));
  }
  return true;
}

test('every watch answered ERROR 410: LIST+WATCH pairs back off (bounded per minute), one warning', { timeout: 60_000 }, async (t) => {
  const api = await startLoopbackApi();
  const { dir, cleanup } = scratchDir();
  const cluster = loadCluster({ kubeconfig: writeKubeconfig(dir, { server: api.url }) });
  let lists = 0;
  let watches = 0;
  api.route(PATH, (req, res, url) => {
    if (url.searchParams.get('watch') === 'true') {
      watches++;
      return expireEveryWatch(res);
    }
    lists++;
    sendJson(res, 200, { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '10' }, items: [configMap('a', '10')] });
  });
  // The HTTP exchanges are real; the reflector's waits run on a clock the test moves.
  const clock = new FakeClock();
  const informer = createSharedInformer({ name: 'cm', listerWatcher: cluster.listerWatcher(configmaps, { namespace: 'default' }), clock, random: () => 0.5 });
  const errors: Error[] = [];
  const backoffs: number[] = [];
  informer.onError((err) => void errors.push(err as Error));
  informer.onProbe((p: Probe) => void (p.kind === 'backoff' && backoffs.push(p.delayMs)));
  t.after(async () => {
    informer.stop();
    cluster.close();
    await api.close();
    cleanup();
  });
  informer.run();

  // One simulated minute: each time the reflector goes to sleep, move its clock past the wait.
  let simulatedMs = 0;
  while (simulatedMs < 60_000) {
    const seen = backoffs.length;
    // A reflector that never sleeps lists and watches as fast as the loopback allows meanwhile.
    if (!(await realTimeUntil(() => backoffs.length > seen, 2_000))) break;
    const wait = backoffs.at(-1)!;
    clock.step(wait);
    simulatedMs += wait;
  }
  const pairs = Math.min(lists, watches);
  // client-go with this jitter: attempts at 0, 1.2, 3.6, 8.4, 18 and 37.2 s; the first relist here is at once.
  assert.ok(pairs <= 8, `${lists} lists and ${watches} watches in one simulated minute`);
  assert.ok(pairs >= 5, `${lists} lists and ${watches} watches: it should keep trying`);
  assert.deepEqual(backoffs.slice(0, 6), [1200, 2400, 4800, 9600, 19200, 30000]);
  const warnings = errors.filter((e) => /keeps ending watches with 410 Gone/.test(e.message));
  assert.equal(warnings.length, 1, errors.map((e) => e.message).join('\n'));
  assert.match(warnings[0]!.message, /relisting with backoff, up to 30 s apart/);
});
