import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiResource, KubeObject } from '../../../src/shared/k8s.ts';
import { clusterOnChildServer } from './support/childServer.ts';

const configmaps: ApiResource = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, shortNames: ['cm'], singularName: 'configmap', verbs: ['list', 'watch'] };
/** What the transform costs per object (a transform that does real work, on a slow machine). */
const TRANSFORM_MS = 0.2;

// The API server, in a process of its own as a real one is: while the client is busy, it keeps the
// socket full. One page of ~150-byte ConfigMaps (well over what the socket holds), as fast as the socket takes it; it exits when its
// stdin closes (or after a minute).
const serverSource = (ITEMS: number): string => `
const http = require('node:http');
const items = Array.from({ length: ${ITEMS} }, (_, i) => ({
  metadata: { name: 'cm-' + i, namespace: 'team-a', uid: 'uid-' + i, resourceVersion: String(100 + i) },
  data: { config: 'line "' + i + '" ]}{[ é' },
}));
const body = Buffer.from(JSON.stringify({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '99999' }, items }));
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
process.stdin.on('end', () => process.exit(0)).resume();
setTimeout(() => process.exit(0), 60_000).unref();
`;

/**
 * The most CPU this process spent between two turns of the event loop (a timer running), from now
 * until `stop`. CPU time, not wall time: on a machine other jobs load, a turn can wait for a core
 * for long without the code doing anything wrong; what must stay short is the work between turns.
 */
function loopWatch(): { stop(): number } {
  let longest = 0;
  let last = process.cpuUsage();
  let timer: NodeJS.Timeout | undefined;
  const tick = (): void => {
    const used = process.cpuUsage(last);
    longest = Math.max(longest, (used.user + used.system) / 1000);
    last = process.cpuUsage();
    timer = setTimeout(tick, 2);
  };
  timer = setTimeout(tick, 2);
  return {
    stop: () => {
      clearTimeout(timer);
      return longest;
    },
  };
}

// 6,000 objects (~0.8 MB) are parsed at once, 20,000 (~2.7 MB) as they stream in: either way the
// transform runs in slices.
for (const ITEMS of [6000, 20000]) {
test(`a list of ${ITEMS} objects in one page (kube-apiserver at resourceVersion=0) is decoded in short slices: timers and I/O keep running, no object is lost`, async (t) => {
  const cluster = await clusterOnChildServer(t, serverSource(ITEMS));
  // A transform that keeps only what a controller needs, and takes a little while per object.
  const keepName = (item: KubeObject): KubeObject => {
    const until = performance.now() + TRANSFORM_MS;
    while (performance.now() < until);
    return { apiVersion: item.apiVersion, kind: item.kind, metadata: { name: item.metadata.name, namespace: item.metadata.namespace, resourceVersion: item.metadata.resourceVersion } };
  };
  const watch = loopWatch();
  const list = await cluster.listerWatcher(configmaps, { namespace: 'team-a' }).list({ resourceVersion: '0', limit: 500 }, undefined, keepName);
  // One more timer: a turn that ended with the list would otherwise go unmeasured.
  await new Promise((resolve) => setTimeout(resolve, 5));
  const longest = watch.stop();
  t.diagnostic(`longest turn ${longest.toFixed(0)} ms of CPU`);

  assert.equal(list.items.length, ITEMS, 'every object of the page');
  assert.deepEqual(list.items.at(-1)?.metadata, { name: `cm-${ITEMS - 1}`, namespace: 'team-a', resourceVersion: String(100 + ITEMS - 1) });
  assert.equal(list.metadata.resourceVersion, '99999');
  // Parsed a socket read at a time, one turn took all the socket held: thousands of objects, over a second.
  assert.ok(longest < 250, `the event loop went ${longest.toFixed(0)} ms of CPU without a turn while the list was decoded`);
});
}
