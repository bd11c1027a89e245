// The defaults below a pod template's top level, as kube-apiserver fills them in: a controller
// that builds a Deployment with a ConfigMap volume and a probe, then compares it with what it
// reads back, sees the same defaulted fields here as in a cluster.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const suite = suiteServer();

describe('pod template nested defaults', () => {
  it('volume sources, probes, lifecycle handlers and env fieldRefs', async () => {
    const container = {
      name: 'c', image: 'nginx',
      readinessProbe: { httpGet: { port: 80 } },
      livenessProbe: { tcpSocket: { port: 80 }, periodSeconds: 5 },
      lifecycle: { preStop: { httpGet: { port: 80, path: '/stop' } } },
      env: [{ name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
    };
    const volumes = [
      { name: 'cm', configMap: { name: 'x' } }, { name: 'sec', secret: { secretName: 'y', defaultMode: 0o600 } },
      { name: 'host', hostPath: { path: '/tmp' } }, { name: 'bare' },
      { name: 'proj', projected: { sources: [{ serviceAccountToken: { path: 't' } }, { downwardAPI: { items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name' } }] } }] } },
    ];
    const body = {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'nested' },
      spec: { selector: { matchLabels: { app: 'n' } }, template: { metadata: { labels: { app: 'n' } }, spec: { containers: [container], volumes } } },
    };
    const r = await call(suite.server, 'POST', '/apis/apps/v1/namespaces/default/deployments', { body });
    assert.equal(r.status, 201, r.body);
    const spec = r.json().spec.template.spec;
    const c = spec.containers[0];
    assert.deepEqual(c.readinessProbe, { httpGet: { port: 80, path: '/', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
    assert.equal(c.livenessProbe.periodSeconds, 5);
    assert.deepEqual(c.lifecycle.preStop.httpGet, { port: 80, path: '/stop', scheme: 'HTTP' });
    assert.deepEqual(c.env[0].valueFrom.fieldRef, { apiVersion: 'v1', fieldPath: 'spec.nodeName' });
    const byName = Object.fromEntries(spec.volumes.map((v: { name: string }) => [v.name, v]));
    assert.deepEqual(byName.cm.configMap, { name: 'x', defaultMode: 420 });
    assert.equal(byName.sec.secret.defaultMode, 0o600);
    assert.deepEqual(byName.host.hostPath, { path: '/tmp', type: '' });
    assert.deepEqual(byName.bare, { name: 'bare', emptyDir: {} });
    assert.equal(byName.proj.projected.defaultMode, 420);
    assert.equal(byName.proj.projected.sources[0].serviceAccountToken.expirationSeconds, 3600);
    assert.equal(byName.proj.projected.sources[1].downwardAPI.items[0].fieldRef.apiVersion, 'v1');
  });
});
