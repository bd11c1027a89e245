import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { loadCluster } from '../../../src/kube/cluster.ts';
import { describeFailure } from '../../../src/kube/errors.ts';
import { b64, makePki } from './support/certs.ts';
import { scratchDir, sendJson, startLoopbackApi, writeKubeconfig } from './support/loopbackApi.ts';
import type { KubeconfigSpec, LoopbackApi } from './support/loopbackApi.ts';

const pki = await makePki();
const dnsOnlyPki = await makePki({ dns: 'kubernetes.internal' });

/** Starts an HTTPS API server answering /version, echoing who the client presented. */
async function tlsApi(t: { after(fn: () => unknown): void }, certs = pki): Promise<LoopbackApi> {
  const api = await startLoopbackApi({ cert: certs.serverCert, key: certs.serverKey, ca: certs.ca, requestCert: true, rejectUnauthorized: false });
  api.route('/version', (req, res) => {
    const peer = (req.socket as TLSSocket).getPeerCertificate();
    sendJson(res, 200, { gitVersion: 'v1.31.0', clientCN: peer?.subject?.CN ?? null, authorization: req.headers.authorization ?? null });
  });
  t.after(() => api.close());
  return api;
}

async function version(t: { after(fn: () => unknown): void }, spec: KubeconfigSpec): Promise<{ clientCN: string | null; authorization: string | null }> {
  const { dir, cleanup } = scratchDir();
  t.after(cleanup);
  const cluster = loadCluster({ kubeconfig: writeKubeconfig(dir, spec), connectTimeoutMs: 5000 });
  t.after(() => cluster.close());
  return cluster.request('/version');
}

test('TLS: the cluster CA verifies the server; the client certificate and token are presented', async (t) => {
  const api = await tlsApi(t);
  const answer = await version(t, {
    server: api.url,
    cluster: { 'certificate-authority-data': b64(pki.ca) },
    user: { 'client-certificate-data': b64(pki.clientCert), 'client-key-data': b64(pki.clientKey) },
  });
  assert.deepEqual(answer, { gitVersion: 'v1.31.0', clientCN: 'alice', authorization: 'Bearer test-token' });
});

test('TLS: CA and client certificate read from files next to the kubeconfig', async (t) => {
  const api = await tlsApi(t);
  const { dir, cleanup } = scratchDir();
  t.after(cleanup);
  writeFileSync(path.join(dir, 'ca.crt'), pki.ca);
  writeFileSync(path.join(dir, 'alice.crt'), pki.clientCert);
  writeFileSync(path.join(dir, 'alice.key'), pki.clientKey);
  const cluster = loadCluster({ kubeconfig: writeKubeconfig(dir, { server: api.url, cluster: { 'certificate-authority': 'ca.crt' }, user: { token: undefined, 'client-certificate': 'alice.crt', 'client-key': 'alice.key' } }) });
  t.after(() => cluster.close());
  assert.deepEqual(await cluster.request('/version'), { gitVersion: 'v1.31.0', clientCN: 'alice', authorization: null });
});

test('TLS: an unknown CA fails the handshake with a tls failure; insecure-skip-tls-verify accepts it', async (t) => {
  const api = await tlsApi(t);
  await assert.rejects(version(t, { server: api.url }), (err: unknown) => {
    const f = describeFailure(err);
    return f.kind === 'tls' && f.message.startsWith(`TLS handshake with ${api.url} failed`);
  });
  assert.equal((await version(t, { server: api.url, cluster: { 'insecure-skip-tls-verify': true } })).authorization, 'Bearer test-token');
});

test('TLS: a client certificate or key that does not parse, or a key of another certificate, is a kubeconfig error naming the field, not a crash', async (t) => {
  const api = await tlsApi(t);
  const other = await makePki();
  const garbage = b64('not a certificate\n');
  const cases: [KubeconfigSpec['user'], RegExp][] = [
    [{ 'client-certificate-data': garbage, 'client-key-data': b64(pki.clientKey) }, /^user "[^"]+" client-certificate-data is not a PEM certificate \(.+\)$/],
    [{ 'client-certificate-data': b64(pki.clientCert), 'client-key-data': garbage }, /^user "[^"]+" client-key-data is not a PEM private key \(.+\)$/],
    [{ 'client-certificate-data': b64(pki.clientCert), 'client-key-data': b64(other.clientKey) }, /^user "[^"]+" client-key-data is not the key of its client-certificate-data \(.+\)$/],
  ];
  for (const [user, message] of cases) {
    await assert.rejects(version(t, { server: api.url, cluster: { 'certificate-authority-data': b64(pki.ca) }, user }), (err: unknown) => {
      const f = describeFailure(err);
      assert.equal(f.kind, 'kubeconfig', f.message);
      assert.match(f.message, message);
      return true;
    });
  }
});

test('TLS: a certificate-authority that holds no PEM certificate is a kubeconfig error naming the field, not a handshake failure', async (t) => {
  const api = await tlsApi(t);
  await assert.rejects(version(t, { server: api.url, cluster: { 'certificate-authority-data': b64('not a certificate\n') } }), (err: unknown) => {
    const f = describeFailure(err);
    assert.equal(f.kind, 'kubeconfig', f.message);
    assert.match(f.message, /^cluster "[^"]+" certificate-authority-data holds no PEM certificate/);
    return true;
  });
});

test('TLS: tls-server-name verifies a certificate issued for another name than the server address', async (t) => {
  const api = await tlsApi(t, dnsOnlyPki);
  const cluster = { 'certificate-authority-data': b64(dnsOnlyPki.ca) };
  await assert.rejects(version(t, { server: api.url, cluster }), (err: unknown) => describeFailure(err).kind === 'tls');
  assert.equal((await version(t, { server: api.url, cluster: { ...cluster, 'tls-server-name': 'kubernetes.internal' } })).clientCN, null);
});

test('basic auth: username and password become an Authorization header', async (t) => {
  const api = await tlsApi(t);
  const answer = await version(t, { server: api.url, cluster: { 'insecure-skip-tls-verify': true }, user: { token: undefined, username: 'admin', password: 's3cret' } });
  assert.equal(answer.authorization, `Basic ${Buffer.from('admin:s3cret').toString('base64')}`);
});

test('exec credential plugin: its token is sent; a failing plugin is a credentials failure quoting its stderr', async (t) => {
  const api = await tlsApi(t);
  const { dir, cleanup } = scratchDir();
  t.after(cleanup);
  const plugin = path.join(dir, 'plugin.mjs');
  writeFileSync(
    plugin,
    `if (process.env.FAIL) { process.stderr.write('error: login required\\n'); process.exit(1); }
     process.stdout.write(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: 'from-plugin-' + process.argv[2] } }));`,
  );
  const exec = (env: { name: string; value: string }[] = []) => ({ apiVersion: 'client.authentication.k8s.io/v1', command: process.execPath, args: [plugin, 'x1'], env, interactiveMode: 'Never' });
  const insecure = { 'insecure-skip-tls-verify': true };
  assert.equal((await version(t, { server: api.url, cluster: insecure, user: { token: undefined, exec: exec() } })).authorization, 'Bearer from-plugin-x1');
  await assert.rejects(version(t, { server: api.url, cluster: insecure, user: { token: undefined, exec: exec([{ name: 'FAIL', value: '1' }]) } }), (err: unknown) => {
    const f = describeFailure(err);
    return f.kind === 'credentials' && /exec credential plugin ".*" for user "loopback" failed: error: login required/.test(f.message);
  });
});

test('proxy-url: requests to an https server tunnel through an HTTP CONNECT proxy', async (t) => {
  const api = await tlsApi(t);
  const tunnels: string[] = [];
  const proxy = net.createServer();
  // A minimal CONNECT proxy: read the request head, dial the target, splice the sockets.
  proxy.on('connection', (client) => {
    client.once('data', (head) => {
      const [method, target] = head.toString('latin1').split(' ');
      if (method !== 'CONNECT' || !target) return void client.end('HTTP/1.1 405 Method Not Allowed\r\n\r\n');
      tunnels.push(target);
      const [host, port] = target.split(':');
      const upstream = net.connect(Number(port), host, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.pipe(client).pipe(upstream);
      });
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  t.after(() => proxy.close());
  const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  const answer = await version(t, { server: api.url, cluster: { 'certificate-authority-data': b64(pki.ca), 'proxy-url': proxyUrl } });
  assert.equal(answer.authorization, 'Bearer test-token');
  assert.deepEqual(tunnels, [`127.0.0.1:${api.port}`]);
});

test('an unreachable server is an "unreachable" failure naming the server', async (t) => {
  const closed = net.createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((r) => closed.close(() => r()));
  await assert.rejects(version(t, { server: `http://127.0.0.1:${port}` }), (err: unknown) => {
    const f = describeFailure(err);
    return f.kind === 'unreachable' && f.message === `cannot reach http://127.0.0.1:${port}: connection refused`;
  });
});

test('a server that accepts but never completes the TLS handshake times out with a clear message', async (t) => {
  const silent = net.createServer(() => {
    /* accepts, says nothing */
  });
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  t.after(() => {
    silent.close();
  });
  const port = (silent.address() as AddressInfo).port;
  const { dir, cleanup } = scratchDir();
  t.after(cleanup);
  const cluster = loadCluster({ kubeconfig: writeKubeconfig(dir, { server: `https://127.0.0.1:${port}` }), connectTimeoutMs: 200 });
  t.after(() => cluster.close());
  await assert.rejects(cluster.request('/version'), (err: unknown) => {
    const f = describeFailure(err);
    return f.kind === 'timeout' && /timed out connecting/.test(f.message);
  });
});

test('an exec credential plugin that keeps the request waiting is named in a warning while it is awaited', async (t) => {
  const api = await tlsApi(t);
  const { dir, cleanup } = scratchDir();
  t.after(cleanup);
  const plugin = path.join(dir, 'slow-plugin.mjs');
  writeFileSync(
    plugin,
    `setTimeout(() => process.stdout.write(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: 'late' } })), 1500);`,
  );
  const warnings: string[] = [];
  const kubeconfig = writeKubeconfig(dir, {
    server: api.url,
    cluster: { 'insecure-skip-tls-verify': true },
    user: { token: undefined, exec: { apiVersion: 'client.authentication.k8s.io/v1', command: process.execPath, args: [plugin], interactiveMode: 'Never' } },
  });
  const cluster = loadCluster({ kubeconfig, connectTimeoutMs: 5000, credentialWarnAfterMs: 300, onWarning: (w) => warnings.push(w) });
  t.after(() => cluster.close());
  const answer = await cluster.request<{ authorization: string }>('/version');
  assert.equal(answer.authorization, 'Bearer late');
  assert.equal(warnings.length, 1, warnings.join('\n'));
  assert.match(warnings[0]!, new RegExp(`^exec credential plugin "${process.execPath.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}" for user "loopback" has not given a credential after 0\\.3 s: still waiting \\(a plugin that logs in interactively needs a terminal\\); run it alone to see what it waits for`));
});
