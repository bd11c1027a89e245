// The restart fault as kube-apiserver restarting: every HTTP/2 connection goes away (GOAWAY, once
// what it serves is answered), not only the watches on it, and every idle HTTP/1.1 keep-alive
// connection closes; the client's next request opens a new connection and is answered.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type ClientHttp2Session } from 'node:http2';
import { Agent, request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
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

it('restart closes an HTTP/1.1 keep-alive connection that serves no request', { timeout: 60_000 }, async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1, ca: server.caPem });
  const get = (path: string, method = 'GET', body?: string) => new Promise<{ status: number; socket: Socket }>((resolve, reject) => {
    const req = httpsRequest({ host: '127.0.0.1', port: server.port, path, method, agent, servername: 'localhost', headers: { authorization: `Bearer ${server.token}`, ...(body ? { 'content-type': 'application/json' } : {}) } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, socket: req.socket as Socket }));
    });
    req.on('error', reject);
    req.end(body);
  });
  const idle = await get('/api/v1/namespaces/default/configmaps');
  const closed = new Promise<void>((resolve) => idle.socket.once('close', () => resolve()));
  const admin = connect(server.url, { ca: server.caPem });
  try {
    assert.equal((await call(admin, 'POST', '/controller-lab/admin/restart', '{}')).status, 200);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('the idle keep-alive connection is still open 10 s after the restart')), 10_000)));
    await Promise.race([closed, late]).finally(() => clearTimeout(timer));
  } finally {
    admin.close();
    agent.destroy();
  }
});
