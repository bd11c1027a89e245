// A `controller-lab sim` process fed hostile input stays up: deeply nested custom resources are
// refused (400) before they are stored, so LIST, WATCH and kubectl keep working, and the in-flight
// limit flags answer 429 + Retry-After past them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import net from 'node:net';
import { kubectl, rawRequest, simForFile, startSimProcess } from './simProcess.ts';

const sim = simForFile();

const WIDGETS = '/apis/hostile.example.com/v1/namespaces/default/widgets';

describe('controller-lab sim under hostile input', () => {
  it('refuses a custom resource nested 4,300 levels deep, and LIST, WATCH and kubectl keep working', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.hostile.example.com' },
      spec: {
        group: 'hostile.example.com',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
        scope: 'Namespaced',
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
      },
    };
    assert.equal((await rawRequest(sim, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: JSON.stringify(crd), headers: { 'Content-Type': 'application/json' } })).status, 201);
    const deep = '{"a":'.repeat(4300) + '1' + '}'.repeat(4300);
    const body = `{"apiVersion":"hostile.example.com/v1","kind":"Widget","metadata":{"name":"deep"},"spec":${deep}}`;
    const created = await rawRequest(sim, 'POST', WIDGETS, { body, headers: { 'Content-Type': 'application/json' } });
    assert.equal(created.status, 400, created.body.slice(0, 200));
    assert.match(JSON.parse(created.body).message, /exceeded max depth/);
    const huge = await rawRequest(sim, 'POST', '/api/v1/namespaces/default/configmaps', { body: '['.repeat(100_000) + ']'.repeat(100_000), headers: { 'Content-Type': 'application/json' } });
    assert.equal(huge.status, 400);

    assert.equal((await rawRequest(sim, 'GET', WIDGETS)).status, 200);
    const watch = await rawRequest(sim, 'GET', `${WIDGETS}?watch=1&timeoutSeconds=1`);
    assert.equal(watch.status, 200);
    const got = await kubectl(sim, ['get', 'widgets', '-n', 'default']);
    assert.equal(got.code, 0, got.stderr);
    assert.equal(sim.process.exitCode, null, 'the sim is still running');
  });

  it('--max-requests-inflight answers 429 with Retry-After: 1 past the limit; health checks are exempt', async () => {
    const limited = await startSimProcess(['--max-requests-inflight', '1']);
    try {
      // Held in flight for a second by an injected latency (the admin API takes no seat).
      const fault = await rawRequest(limited, 'POST', '/controller-lab/admin/http-faults', { body: JSON.stringify({ latencyMs: 1000, pathFilter: '/api/v1/namespaces/default/configmaps' }), headers: { 'Content-Type': 'application/json' } });
      assert.equal(fault.status, 200, fault.body);
      const held = rawRequest(limited, 'GET', '/api/v1/namespaces/default/configmaps');
      await new Promise((r) => setTimeout(r, 300));
      const refused = await rawRequest(limited, 'GET', '/api/v1/namespaces');
      assert.equal(refused.status, 429, refused.body);
      assert.equal(refused.headers['retry-after'], '1');
      assert.equal((await rawRequest(limited, 'GET', '/healthz')).status, 200);
      assert.equal((await held).status, 200);
      // The seat comes back once the held response is closed on the server's side too.
      let after = await rawRequest(limited, 'GET', '/api/v1/namespaces');
      for (let i = 0; i < 20 && after.status === 429; i++) {
        await new Promise((r) => setTimeout(r, 100));
        after = await rawRequest(limited, 'GET', '/api/v1/namespaces');
      }
      assert.equal(after.status, 200);
    } finally {
      assert.equal(await limited.stop(), 0);
    }
  });

  it('with its file descriptors used up by connections it stays up, keeps what it stored, and answers once they close', { skip: process.platform !== 'linux' && 'prlimit is Linux' }, async () => {
    const limited = await startSimProcess();
    try {
      const kept = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kept' }, data: { a: '1' } };
      assert.equal((await rawRequest(limited, 'POST', '/api/v1/namespaces/default/configmaps', { body: JSON.stringify(kept), headers: { 'Content-Type': 'application/json' } })).status, 201);
      execFileSync('prlimit', ['--pid', String(limited.process.pid), '--nofile=300:300']);
      const { hostname, port } = new URL(limited.url);
      const sockets = Array.from({ length: 500 }, () => net.connect(Number(port), hostname).on('error', () => {}));
      // Long enough for the sim's once-a-second housekeeping to run with no descriptor to spare.
      await new Promise((r) => setTimeout(r, 3000));
      for (const s of sockets) s.destroy();
      let got = await rawRequest(limited, 'GET', '/api/v1/namespaces/default/configmaps/kept').catch((err: Error) => ({ status: 0, body: err.message }));
      for (let i = 0; i < 50 && got.status !== 200 && limited.process.exitCode === null; i++) {
        await new Promise((r) => setTimeout(r, 200));
        got = await rawRequest(limited, 'GET', '/api/v1/namespaces/default/configmaps/kept').catch((err: Error) => ({ status: 0, body: err.message }));
      }
      assert.equal(limited.process.exitCode, null, `the sim exited:\n${limited.output()}`);
      assert.equal(got.status, 200, got.body);
      assert.deepEqual(JSON.parse(got.body).data, { a: '1' });
    } finally {
      assert.equal(await limited.stop(), 0, limited.output());
    }
  });
});
