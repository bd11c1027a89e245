// A storm of LISTs: past the in-flight limit the server answers 429 + Retry-After at once (as
// kube-apiserver's max-requests-inflight; a LIST of many objects takes up to 10 seats, as its work
// estimator counts them), watches and health checks take no seat, a client that goes away gives
// its seats back, and big lists stream whole to the clients that read them.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { FakeClock } from '../../../../src/shared/clock.ts';
import { createSimCluster, type SimCluster } from '../../../../src/sim/simCluster.ts';
import { startSimServer, type SimServerHandle } from '../../../../src/sim/server/simServer.ts';
import { call, openWatch } from './httpClient.ts';

const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' };
const LIST = '/api/v1/namespaces/default/configmaps';
/** ~20 MB of list: more than loopback socket buffers hold, so a client that does not read keeps it in flight. */
const OBJECTS = 5000;

let cluster: SimCluster;
let server: SimServerHandle;

before(async () => {
  cluster = createSimCluster({ clock: new FakeClock(Date.parse('2026-01-01T00:00:00Z')) });
  server = await startSimServer(cluster, { insecureHttp: true, maxRequestsInFlight: { readOnly: 20, mutating: 1 } });
  const filler = 'x'.repeat(4096);
  for (let i = 0; i < OBJECTS; i++) cluster.create(CONFIGMAPS, 'default', { metadata: { name: `cm-${String(i).padStart(5, '0')}` }, data: { filler } });
});

after(async () => {
  await server.stop();
  await cluster.close();
});

/** A LIST whose client sends the request and never reads the answer. */
function stalledList(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => {
      socket.write(`GET ${LIST} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${server.token}\r\n\r\n`);
      socket.pause();
      resolve(socket);
    });
    socket.on('error', reject);
  });
}

async function eventually<T>(what: string, attempt: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await attempt();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('requests in flight', () => {
  it('past the limit, a request is answered 429 with Retry-After at once; watches, health checks and writes are not held up', async () => {
    // Two big LISTs of 5000 objects take 10 seats each: the 20 read-only seats are gone.
    const stalled = [await stalledList(), await stalledList()];
    const refused = await eventually('a 429', async () => {
      const r = await call(server, 'GET', `${LIST}/cm-00001`);
      return r.status === 429 ? r : undefined;
    });
    assert.equal(refused.headers['retry-after'], '1');
    assert.equal(refused.body, 'Too many requests, please try again later.\n');

    for (const path of ['/healthz', '/livez', '/readyz']) assert.equal((await call(server, 'GET', path)).status, 200, path);
    const watch = await openWatch(server, `${LIST}?watch=1&resourceVersion=${cluster.resourceVersion}`);
    assert.equal(watch.status, 200);
    const created = await call(server, 'POST', LIST, { body: { metadata: { name: 'written-meanwhile' } } });
    assert.equal(created.status, 201, created.body);
    await watch.waitForLines(1);
    watch.close();

    // A client that goes away frees its seat: the next LIST is served, whole.
    stalled[0]!.destroy();
    const list = await eventually('a seat', async () => {
      const r = await call(server, 'GET', LIST);
      return r.status === 200 ? r : undefined;
    });
    assert.equal(list.json().items.length, OBJECTS + 1);
    stalled[1]!.destroy();
  });

  it('a big list streams to its client as one valid JSON document, the same as a paged read of it', async () => {
    const whole = await eventually('a seat', async () => {
      const r = await call(server, 'GET', LIST);
      return r.status === 200 ? r : undefined;
    });
    const list = whole.json();
    assert.equal(list.kind, 'ConfigMapList');
    const names: string[] = [];
    let next = '';
    do {
      const page = (await call(server, 'GET', `${LIST}?limit=1500${next ? `&continue=${encodeURIComponent(next)}` : ''}`)).json();
      names.push(...page.items.map((i: { metadata: { name: string } }) => i.metadata.name));
      next = page.metadata.continue ?? '';
    } while (next);
    assert.deepEqual(list.items.map((i: { metadata: { name: string } }) => i.metadata.name), names);
  });
});
