import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreatePki } from '../../../../src/sim/tls/certificates.ts';
import { renderKubeconfig } from '../../../../src/sim/tls/kubeconfig.ts';
import { endpointFromKubeconfig } from '../../../../src/sim/server/adminClient.ts';

test('the serving certificate is for loopback only and signed by the CA', async () => {
  const pki = await loadOrCreatePki();
  const ca = new X509Certificate(pki.ca.certPem);
  const leaf = new X509Certificate(pki.serving.certPem);
  assert.equal(ca.ca, true);
  assert.equal(leaf.ca, false);
  assert.ok(leaf.verify(ca.publicKey), 'signed by the CA');
  assert.ok(leaf.checkIssued(ca));
  assert.equal(leaf.subjectAltName, 'DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
  assert.ok(leaf.checkIP('127.0.0.1'));
  assert.equal(leaf.checkHost('example.com'), undefined);
});

test('the CA is kept in the state dir (key private) and reused', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'sim-pki-'));
  const first = await loadOrCreatePki(dir);
  const second = await loadOrCreatePki(dir);
  assert.equal(second.ca.certPem, first.ca.certPem);
  assert.notEqual(second.serving.certPem, first.serving.certPem, 'a fresh serving cert each start');
  assert.equal(await readFile(join(dir, 'ca.crt'), 'utf8'), first.ca.certPem);
  assert.equal((await stat(join(dir, 'ca.key'))).mode & 0o777, 0o600);
});

test('a kubeconfig round-trips to the endpoint the admin client uses', () => {
  const text = renderKubeconfig({ server: 'https://127.0.0.1:1234', token: 'tok', caPem: 'PEM', namespace: 'shop' });
  assert.deepEqual(endpointFromKubeconfig(text), { server: 'https://127.0.0.1:1234', token: 'tok', caPem: 'PEM' });
  assert.match(text, /namespace: shop/);
  assert.match(text, /current-context: controller-lab-sim/);
  assert.deepEqual(endpointFromKubeconfig(renderKubeconfig({ server: 'http://127.0.0.1:1', token: 't' })), { server: 'http://127.0.0.1:1', token: 't' });
  assert.throws(() => endpointFromKubeconfig('apiVersion: v1\nkind: Config\n'), /bearer token/);
});
