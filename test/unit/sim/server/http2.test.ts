// HTTP/2 as client-go and kubectl negotiate it with kube-apiserver (ALPN h2 over TLS): requests and
// watches multiplexed on one connection, the per-connection stream limit kube-apiserver sets, and
// every answer that differs in shape between the protocols (watches, 401, 413, 429, stop). HTTP/1.1
// clients on the same port keep working.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type ClientHttp2Session, type IncomingHttpHeaders } from 'node:http2';
import { request as httpsRequest } from 'node:https';
import { connect as tlsConnect } from 'node:tls';
import { FakeClock } from '../../../../src/shared/clock.ts';
import { createSimCluster, type SimCluster } from '../../../../src/sim/simCluster.ts';
import { startSimServer, type SimServerHandle } from '../../../../src/sim/server/simServer.ts';
import { HTTP2_MAX_CONCURRENT_STREAMS } from '../../../../src/sim/server/http2Settings.ts';
import { SLOW_WATCHER_BUFFER } from '../../../../src/sim/store/watcher.ts';

let clock: FakeClock;
let cluster: SimCluster;
let server: SimServerHandle;
const warnings: string[] = [];
const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);

before(async () => {
  process.on('warning', onWarning);
  clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));
  cluster = createSimCluster({ clock });
  server = await startSimServer(cluster, { maxRequestsInFlight: { mutating: 2 } });
});

after(async () => {
  process.off('warning', onWarning);
  await server.stop();
  await cluster.close();
});

/** A connection whose window is Go's client's (1 GB): a stream not read holds up no other. */
function session(): Promise<ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const s = connect(server.url, { ca: server.caPem });
    s.once('connect', () => s.setLocalWindowSize(1 << 30));
    s.once('remoteSettings', () => resolve(s));
    s.once('error', reject);
  });
}

interface H2Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

function h2Call(s: ClientHttp2Session, method: string, path: string, options: { body?: string | Buffer; token?: string | null; headers?: Record<string, string | string[]> } = {}): Promise<H2Answer> {
  const headers: Record<string, string | string[]> = { ':method': method, ':path': path, accept: 'application/json', ...options.headers };
  const token = options.token === undefined ? server.token : options.token;
  if (token !== null) headers['authorization'] = `Bearer ${token}`;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(options.body));
  }
  return new Promise((resolve, reject) => {
    const req = s.request(headers);
    let answer: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    req.on('response', (h) => (answer = h));
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve({ status: Number(answer[':status']), headers: answer, body: Buffer.concat(chunks).toString('utf8') }));
    req.on('error', reject);
    req.end(options.body);
  });
}

const configMap = (name: string) => JSON.stringify({ metadata: { name }, data: { a: '1' } });

describe('HTTP/2 over TLS', { timeout: 120_000 }, () => {
  it('is what ALPN negotiates for a client offering h2 and HTTP/1.1, as client-go does', async () => {
    const protocol = await new Promise<string | false | null>((resolve, reject) => {
      const socket = tlsConnect({ host: '127.0.0.1', port: server.port, ca: server.caPem, ALPNProtocols: ['h2', 'http/1.1'] }, () => {
        resolve(socket.alpnProtocol);
        socket.destroy();
      });
      socket.on('error', reject);
    });
    assert.equal(protocol, 'h2');
  });

  it('serves a request acting as another user (kubectl --as, controller-lab check\'s user), groups and all', async () => {
    const s = await session();
    try {
      // Granted by no binding: refused as that user, which shows the request acted as it.
      const asNobody = await h2Call(s, 'GET', '/api/v1/namespaces/default/configmaps', { headers: { 'impersonate-user': 'nobody' } });
      assert.equal(asNobody.status, 403, asNobody.body);
      assert.match(JSON.parse(asNobody.body).message, /User "nobody" cannot list resource "configmaps"/);
      // Two Impersonate-Group headers, as client-go sends them: both count (system:masters may do anything).
      const asMaster = await h2Call(s, 'GET', '/api/v1/namespaces/default/configmaps', { headers: { 'impersonate-user': 'someone', 'impersonate-group': ['team', 'system:masters'] } });
      assert.equal(asMaster.status, 200, asMaster.body);
    } finally {
      s.close();
    }
  });

  it('limits each connection to kube-apiserver\'s 250 concurrent streams', async () => {
    const s = await session();
    try {
      assert.equal(HTTP2_MAX_CONCURRENT_STREAMS, 250);
      assert.equal(s.remoteSettings.maxConcurrentStreams, 250);
    } finally {
      s.close();
    }
  });

  it('serves requests, writes and a watch on one connection, the watch\'s events as they happen', async () => {
    const s = await session();
    try {
      const version = await h2Call(s, 'GET', '/version');
      assert.equal(version.status, 200, version.body);
      assert.equal(version.headers['connection'], undefined);
      const from = String(cluster.resourceVersion);
      const watch = s.request({ ':path': `/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${from}`, authorization: `Bearer ${server.token}` });
      const watchHeaders = await new Promise<IncomingHttpHeaders>((resolve, reject) => {
        watch.once('response', resolve);
        watch.once('error', reject);
      });
      assert.equal(watchHeaders[':status'], 200);
      assert.equal(watchHeaders['transfer-encoding'], undefined);
      let text = '';
      watch.setEncoding('utf8');
      watch.on('data', (chunk: string) => (text += chunk));
      const created = await h2Call(s, 'POST', '/api/v1/namespaces/default/configmaps', { body: configMap('over-h2') });
      assert.equal(created.status, 201, created.body);
      await until('the watch saw the create', () => text.includes('"over-h2"'));
      const event = JSON.parse(text.split('\n')[0]!);
      assert.equal(event.type, 'ADDED');
      watch.close();
    } finally {
      s.close();
    }
  });

  it('ends a watch at its timeoutSeconds with the end of its stream', async () => {
    const s = await session();
    try {
      const watch = s.request({ ':path': '/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1', authorization: `Bearer ${server.token}` });
      watch.resume();
      await new Promise((resolve) => watch.once('response', resolve));
      const ended = new Promise<void>((resolve, reject) => {
        watch.once('end', resolve);
        watch.once('error', reject);
      });
      clock.step(1000);
      await ended;
    } finally {
      s.close();
    }
  });

  it('answers 401, 413 and 429 (Retry-After) as over HTTP/1.1, and warns of no connection header', async () => {
    const s = await session();
    try {
      const unauthorized = await h2Call(s, 'POST', '/api/v1/namespaces/default/configmaps', { token: null, body: configMap('x') });
      assert.equal(unauthorized.status, 401, unauthorized.body);
      const tooLarge = await h2Call(s, 'POST', '/api/v1/namespaces/default/configmaps', { body: Buffer.alloc(4 * 1024 * 1024, 0x20) });
      assert.equal(tooLarge.status, 413, tooLarge.body);
      // Mutating seats are 2: five creates at once, three answered 429 with Retry-After.
      const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => h2Call(s, 'POST', '/api/v1/namespaces/default/configmaps', { body: configMap(`burst-${i}`) })));
      const refused = answers.filter((a) => a.status === 429);
      assert.ok(refused.length > 0, answers.map((a) => a.status).join(','));
      assert.equal(refused[0]!.headers['retry-after'], '1');
      // The connection still serves.
      assert.equal((await h2Call(s, 'GET', '/version')).status, 200);
      assert.deepEqual(warnings, []);
    } finally {
      s.close();
    }
  });

  it('closes a watch whose stream is not read (flow control) while another on the same connection gets every event', async () => {
    const s = await session();
    try {
      cluster.create({ group: '', version: 'v1', resource: 'namespaces' }, '', { metadata: { name: 'stalled' } });
      const own = cluster.openWatchCount();
      const path = `/api/v1/namespaces/stalled/configmaps?watch=1&resourceVersion=${cluster.resourceVersion}`;
      const stalled = s.request({ ':path': path, authorization: `Bearer ${server.token}` });
      stalled.on('error', () => undefined);
      stalled.pause();
      const reader = s.request({ ':path': path, authorization: `Bearer ${server.token}` });
      let lines = 0;
      let rest = '';
      reader.setEncoding('utf8');
      reader.on('data', (chunk: string) => {
        const parts = (rest + chunk).split('\n');
        rest = parts.pop() ?? '';
        lines += parts.length;
      });
      await until('both watches are open', () => cluster.openWatchCount() === own + 2);
      const filler = 'x'.repeat(4096);
      const total = 3 * SLOW_WATCHER_BUFFER;
      for (let i = 0; i < total; i++) {
        cluster.create({ group: '', version: 'v1', resource: 'configmaps' }, 'stalled', { metadata: { name: `cm-${i}` }, data: { filler } });
        if (i % 200 === 199) await new Promise((r) => setImmediate(r));
      }
      await until('the stalled watch is closed', () => cluster.openWatchCount() === own + 1, 60_000, () => `${lines} lines read, ${cluster.openWatchCount() - own} watches open`);
      await until('the reader has every event', () => lines >= total, 60_000, () => `${lines} of ${total}`);
      assert.equal((await h2Call(s, 'GET', '/healthz')).status, 200);
      reader.close();
      stalled.close();
    } finally {
      s.close();
    }
  });

  it('keeps serving HTTP/1.1 clients (Node\'s https) on the same port', async () => {
    const status = await new Promise<{ code: number; version: string }>((resolve, reject) => {
      const req = httpsRequest(`${server.url}/version`, { ca: server.caPem, headers: { authorization: `Bearer ${server.token}` } }, (res) => {
        res.resume();
        resolve({ code: res.statusCode ?? 0, version: res.httpVersion });
      });
      req.on('error', reject);
      req.end();
    });
    assert.deepEqual(status, { code: 200, version: '1.1' });
  });

  it('stop() ends an open HTTP/2 watch cleanly (the end of its stream, as client-go takes for a watch to resume) and resolves', async () => {
    const other = await startSimServer(cluster);
    const s = connect(other.url, { ca: other.caPem });
    const errors: string[] = [];
    s.on('error', (err) => errors.push(`session: ${err.message}`));
    const watch = s.request({ ':path': '/api/v1/namespaces/default/configmaps?watch=1', authorization: `Bearer ${other.token}` });
    watch.on('error', (err) => errors.push(`stream: ${err.message}`));
    watch.resume();
    await new Promise((resolve) => watch.once('response', resolve));
    let ended = false;
    watch.once('end', () => (ended = true));
    const closed = new Promise<void>((resolve) => watch.once('close', resolve));
    await other.stop();
    await closed;
    assert.deepEqual({ ended, errors, rstCode: watch.rstCode }, { ended: true, errors: [], rstCode: 0 });
    s.destroy();
  });
});

async function until(what: string, check: () => boolean, timeoutMs = 10_000, progress?: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}${progress ? ` (${progress()})` : ''}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
