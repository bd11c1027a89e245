// The restart fault over HTTP/2: as when kube-apiserver restarts, every connection goes away
// (GOAWAY, once what it serves is answered), not only the watches on it; the client's next request
// opens a new connection and is answered.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type ClientHttp2Session } from 'node:http2';
import { createSimCluster, type SimCluster } from '../../../../src/sim/simCluster.ts';
import { startSimServer, type SimServerHandle } from '../../../../src/sim/server/simServer.ts';

let cluster: SimCluster;
let server: SimServerHandle;

before(async () => {
  cluster = createSimCluster();
  server = await startSimServer(cluster);
});

after(async () => {
  await server.stop();
  await cluster.close();
});

function session(): Promise<ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const s = connect(server.url, { ca: server.caPem });
    s.once('remoteSettings', () => resolve(s));
    s.once('error', reject);
  });
}

function call(s: ClientHttp2Session, method: string, path: string, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = s.request({ ':method': method, ':path': path, authorization: `Bearer ${server.token}`, ...(body ? { 'content-type': 'application/json' } : {}) });
    let status = 0;
    const chunks: Buffer[] = [];
    req.on('response', (h) => (status = Number(h[':status'])));
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve({ status, body: Buffer.concat(chunks).toString('utf8') }));
    req.on('error', reject);
    req.end(body);
  });
}

it('restart sends every HTTP/2 connection away once its answers are sent; the next request is answered on a new one', { timeout: 60_000 }, async () => {
  const watching = await session();
  const admin = await session();
  const goneAway = (s: ClientHttp2Session) => new Promise<void>((resolve) => s.once('goaway', () => resolve()));
  const bothGone = Promise.all([goneAway(watching), goneAway(admin)]);
  const watch = watching.request({ ':path': '/api/v1/namespaces/default/configmaps?watch=1', authorization: `Bearer ${server.token}` });
  const watchEnded = new Promise<void>((resolve) => watch.on('close', () => resolve()));
  watch.resume();
  await new Promise((resolve) => watch.once('response', resolve));

  const restarted = await call(admin, 'POST', '/controller-lab/admin/restart', '{}');
  assert.equal(restarted.status, 200, restarted.body);
  await watchEnded;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('no GOAWAY within 10 s of the restart: the connections stay open')), 10_000)));
  await Promise.race([bothGone, late]).finally(() => clearTimeout(timer));

  const fresh = await session();
  try {
    assert.equal((await call(fresh, 'GET', '/api/v1/namespaces/default/configmaps')).status, 200);
  } finally {
    for (const s of [watching, admin, fresh]) s.close();
  }
});
