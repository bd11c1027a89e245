import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiResource, WatchEvent } from '../../../src/shared/k8s.ts';
import { clusterOnChildServer } from './support/childServer.ts';

const configmaps: ApiResource = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, shortNames: ['cm'], singularName: 'configmap', verbs: ['list', 'watch'] };
const EVENTS = 6000;
/** What handling one event costs (a handler that does real work, on a slow machine). */
const HANDLER_MS = 0.2;

// The API server, in a process of its own: a burst of watch events (~1.6 MB) written at once, as a
// rollout or a reconnect after a pause delivers them; the watch then stays open.
const SERVER = `
const http = require('node:http');
const lines = Array.from({ length: ${EVENTS} }, (_, i) => JSON.stringify({ type: 'MODIFIED', object: {
  apiVersion: 'v1', kind: 'ConfigMap',
  metadata: { name: 'cm-' + (i % 50), namespace: 'team-a', uid: 'uid-' + (i % 50), resourceVersion: String(1000 + i) },
  data: { config: 'line "' + i + '" ]}{[ é', pad: 'x'.repeat(120) },
} }) + '\\n');
const body = Buffer.from(lines.join(''));
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.write(body);
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
process.stdin.on('end', () => process.exit(0)).resume();
setTimeout(() => process.exit(0), 60_000).unref();
`;

test('a burst of watch events is decoded and handled in short slices: timers and I/O keep running, every event arrives in order', async (t) => {
  const cluster = await clusterOnChildServer(t, SERVER);
  // CPU spent between two turns of the event loop, not wall time: on a loaded machine a turn may
  // wait for a core for long without the code doing anything wrong.
  let longest = 0;
  let last = process.cpuUsage();
  const tick = setInterval(() => {
    const used = process.cpuUsage(last);
    longest = Math.max(longest, (used.user + used.system) / 1000);
    last = process.cpuUsage();
  }, 2);
  t.after(() => clearInterval(tick));
  const rvs: number[] = [];
  let done: () => void = () => {};
  const all = new Promise<void>((resolve) => (done = resolve));
  const handle = await cluster.listerWatcher(configmaps, { namespace: 'team-a' }).watch({ resourceVersion: '999' }, {
    event: (ev: WatchEvent) => {
      const until = performance.now() + HANDLER_MS;
      while (performance.now() < until);
      rvs.push(Number(ev.object.metadata.resourceVersion));
      if (rvs.length === EVENTS) done();
    },
    close: () => {},
  });
  t.after(() => handle.stop());
  await all;
  // One more timer: a turn that ended with the last event would otherwise go unmeasured.
  await new Promise((resolve) => setTimeout(resolve, 5));
  t.diagnostic(`longest turn ${longest.toFixed(0)} ms of CPU`);
  assert.deepEqual(rvs, Array.from({ length: EVENTS }, (_, i) => 1000 + i), 'every event, in order');
  // Decoded a socket read at a time, one turn handled hundreds of events.
  assert.ok(longest < 250, `the event loop went ${longest.toFixed(0)} ms of CPU without a turn while the events were handled`);
});
