// Watch clients that stop reading: the server respects socket backpressure, closes such a watch
// once its buffer fills (as the cacher closes an unresponsive watcher), and keeps serving the
// watchers that do read, every event in order.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { SLOW_WATCHER_BUFFER } from '../../../../src/sim/store/watcher.ts';
import { call, openWatch } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const suite = suiteServer();

const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' };
const FILLER = 'x'.repeat(4096);

/** A watch whose client sends the request and then never reads a byte. */
function stalledWatch(path: string): Promise<Socket> {
  const url = new URL(path, suite.server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), '127.0.0.1', () => {
      socket.write(`GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${suite.server.token}\r\n\r\n`);
      socket.pause();
      resolve(socket);
    });
    socket.on('error', reject);
  });
}

// Generous: 6,000 writes of 4 KB to eleven watchers take seconds on a 2-core machine other jobs share.
async function until(what: string, check: () => boolean, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('watch clients that stop reading', () => {
  it('are closed once their buffer fills, while a reading watcher gets every event', async () => {
    const { cluster } = suite;
    // The sim's own controller manager watches in process too (namespaces, serviceaccounts and
    // clusterroles; no CA ConfigMaps over plain HTTP): those watches are not the test's.
    await until('the controller manager watches', () => cluster.openWatchCount() === 3);
    const own = cluster.openWatchCount();
    const path = '/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=' + String(cluster.resourceVersion);
    const reader = await openWatch(suite.server, path);
    const stalled = await Promise.all(Array.from({ length: 10 }, () => stalledWatch(path)));
    await until('every watch is open', () => cluster.openWatchCount() === own + 11);

    // Far more than the sockets can hold (each event is ~4 KB), in bursts as writes arrive.
    const total = 6000;
    for (let i = 0; i < total; i++) {
      cluster.create(CONFIGMAPS, 'default', { metadata: { name: `cm-${i}` }, data: { filler: FILLER } });
      if (i % 200 === 199) await new Promise((r) => setImmediate(r));
    }
    assert.ok(total > 4 * SLOW_WATCHER_BUFFER);

    await until('the stalled watches are closed', () => cluster.openWatchCount() === own + 1);
    const slow = cluster.clients.clients().flatMap((c) => c.watches).filter((w) => w.closeReason === 'slow');
    assert.equal(slow.length, 10);

    const lines = await reader.waitForLines(total, 90_000);
    const names = lines.map((l) => JSON.parse(l).object.metadata.name);
    assert.deepEqual(names, Array.from({ length: total }, (_, i) => `cm-${i}`));
    assert.equal((await call(suite.server, 'GET', '/healthz')).status, 200);
    reader.close();
    for (const s of stalled) s.destroy();
    await until('no watch of the test is left', () => cluster.openWatchCount() === own);
  });
});
