// Webhooks that cannot be called: down, too slow, answering garbage, or serving a certificate the
// caBundle does not vouch for. failurePolicy Fail answers kube-apiserver's 500 ("failed calling
// webhook …"), Ignore lets the write through; a slow webhook costs at most its timeoutSeconds and
// the sim keeps answering other requests meanwhile.
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { generateCa } from '../../../../src/sim/tls/certificates.ts';
import { admissionSuite, call, configMap, configure, unconfigureAll, webhook } from './webhookServer.ts';

const s = admissionSuite();
const CM = '/api/v1/namespaces/default/configmaps';

afterEach(async () => {
  await unconfigureAll(s.sim);
  s.webhook.reviews.length = 0;
});

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('a webhook that cannot be called', () => {
  it('fails the write with 500 under failurePolicy Fail when it is down, and lets it through under Ignore', async () => {
    const port = await closedPort();
    const url = `https://127.0.0.1:${port}/validate`;
    await configure(s.sim, 'validating', 'down', [webhook('down.example.com', url, s.webhook.caBundle)]);
    const failed = await call(s.sim, 'POST', CM, { body: configMap('while-down') });
    assert.equal(failed.status, 500, failed.body);
    assert.equal(failed.json().reason, 'InternalError');
    assert.equal(
      failed.json().message,
      `Internal error occurred: failed calling webhook "down.example.com": failed to call webhook: Post "${url}?timeout=10s": dial tcp 127.0.0.1:${port}: connect: connection refused`,
    );
    assert.equal((await call(s.sim, 'GET', `${CM}/while-down`)).status, 404);

    await configure(s.sim, 'validating', 'down', [webhook('down.example.com', url, s.webhook.caBundle, { failurePolicy: 'Ignore' })]);
    const ignored = await call(s.sim, 'POST', CM, { body: configMap('while-down') });
    assert.equal(ignored.status, 201, ignored.body);
  });

  it('gives up after timeoutSeconds, and other requests are answered meanwhile', async () => {
    let release = (): void => {};
    s.webhook.on('/slow', () => new Promise((resolve) => (release = () => resolve({ allowed: true }))));
    await configure(s.sim, 'mutating', 'slow', [webhook('slow.example.com', `${s.webhook.url}/slow`, s.webhook.caBundle, { timeoutSeconds: 1 })]);

    const started = Date.now();
    const slow = call(s.sim, 'POST', CM, { body: configMap('too-slow') });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const meanwhile = await call(s.sim, 'GET', '/api/v1/namespaces/default');
    assert.equal(meanwhile.status, 200, 'the sim answers while a webhook keeps a write waiting');
    const answer = await slow;
    release();
    assert.equal(answer.status, 500, answer.body);
    assert.match(answer.json().message, /failed calling webhook "slow\.example\.com": failed to call webhook: Post "https:\/\/127\.0\.0\.1:\d+\/slow\?timeout=1s": context deadline exceeded$/);
    const elapsed = Date.now() - started;
    assert.ok(elapsed >= 900 && elapsed < 5000, `answered after ${elapsed} ms`);
    assert.equal((await call(s.sim, 'GET', `${CM}/too-slow`)).status, 404);
  });

  it('is not trusted when its certificate is not signed by the caBundle', async () => {
    const stranger = Buffer.from((await generateCa()).certPem).toString('base64');
    await configure(s.sim, 'validating', 'untrusted', [webhook('untrusted.example.com', `${s.webhook.url}/validate`, stranger)]);
    const r = await call(s.sim, 'POST', CM, { body: configMap('untrusted') });
    assert.equal(r.status, 500, r.body);
    assert.match(r.json().message, /failed calling webhook "untrusted\.example\.com": .*x509: certificate signed by unknown authority/);
    assert.equal(s.webhook.reviews.length, 0);
  });

  it('is trusted when the caBundle is its own certificate, and reached at a URL with `//path`, as envtest registers webhooks', async () => {
    s.webhook.on('/deny', () => ({ allowed: false, status: { code: 403, reason: 'Forbidden', message: 'Always denied' } }));
    await configure(s.sim, 'validating', 'leaf', [webhook('leaf.example.com', `${s.webhook.url}//deny`, s.webhook.certBundle)]);
    const r = await call(s.sim, 'POST', CM, { body: configMap('leaf') });
    assert.equal(r.status, 403, r.body);
    assert.equal(r.json().message, 'admission webhook "leaf.example.com" denied the request: Always denied');
  });

  it('answers garbage or an error status: a failure to call it', async () => {
    s.webhook.on('/garbage', () => ({ raw: { status: 200, body: 'not json' } }));
    s.webhook.on('/crash', () => ({ raw: { status: 500, body: 'boom' } }));
    s.webhook.on('/wrong-uid', () => ({ allowed: true, uid: 'someone-else' }));
    const expected: Record<string, RegExp> = {
      '/garbage': /failed to call webhook: couldn't get version\/kind; json parse error/,
      '/crash': /failed to call webhook: Post "[^"]+": an error on the server \("boom"\) has prevented the request from succeeding/,
      '/wrong-uid': /received invalid webhook response: expected response\.uid="[0-9a-f-]{36}", got "someone-else"$/,
    };
    for (const [path, why] of Object.entries(expected)) {
      await configure(s.sim, 'validating', 'broken', [webhook('broken.example.com', `${s.webhook.url}${path}`, s.webhook.caBundle)]);
      const r = await call(s.sim, 'POST', CM, { body: configMap('broken') });
      assert.equal(r.status, 500, `${path}: ${r.body}`);
      assert.match(r.json().message, /^Internal error occurred: failed calling webhook "broken\.example\.com": /);
      assert.match(r.json().message, why);
    }
  });
});
