// Server-side apply reads the applied configuration against the kind's schema: a field a built-in
// type does not declare fails the apply whatever fieldValidation says, with structured-merge-diff's
// message (kube-apiserver v1.28 answers it as a 500 without a reason).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const suite = suiteServer();
const APPLY = 'application/apply-patch+yaml';

describe('server-side apply of undeclared fields', () => {
  it('fails for a field the type does not declare, in the main resource and in /status', async () => {
    const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'applied' } };
    const created = await call(suite.server, 'PATCH', '/api/v1/nodes/applied?fieldManager=test', { body: node, contentType: APPLY });
    assert.ok(created.status < 300, created.body);
    const status = await call(suite.server, 'PATCH', '/api/v1/nodes/applied/status?fieldManager=test', { body: { ...node, status: { invalidStatusField: 'x' } }, contentType: APPLY });
    assert.equal(status.status, 500);
    assert.deepEqual(status.json(), {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 500,
      message: 'failed to create typed patch object (/applied; /v1, Kind=Node): .status.invalidStatusField: field not declared in schema',
    });
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'applied' }, data: { a: 'b' }, extra: true };
    const ignored = await call(suite.server, 'PATCH', '/api/v1/namespaces/default/configmaps/applied?fieldManager=test&fieldValidation=Ignore', { body: cm, contentType: APPLY });
    assert.equal(ignored.status, 500);
    // The object is named as the configuration names it: no namespace unless it writes one.
    assert.equal(ignored.json().message, 'failed to create typed patch object (/applied; /v1, Kind=ConfigMap): .extra: field not declared in schema');
    const namespaced = await call(suite.server, 'PATCH', '/api/v1/namespaces/default/configmaps/applied?fieldManager=test', { body: { ...cm, metadata: { name: 'applied', namespace: 'default' } }, contentType: APPLY });
    assert.equal(namespaced.json().message, 'failed to create typed patch object (default/applied; /v1, Kind=ConfigMap): .extra: field not declared in schema');
    assert.equal((await call(suite.server, 'GET', '/api/v1/namespaces/default/configmaps/applied')).status, 404);
  });

  it('fails for a value of the wrong kind with structured-merge-diff\'s words, before anything decodes it', async () => {
    const labels = { app: 'typed' };
    const deployment = (spec: Record<string, unknown>, metadata: Record<string, unknown> = {}) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'typed', ...metadata }, spec });
    const apply = (body: unknown) => call(suite.server, 'PATCH', '/apis/apps/v1/namespaces/default/deployments/typed?fieldManager=test', { body, contentType: APPLY });
    const prefix = 'failed to create typed patch object (/typed; apps/v1, Kind=Deployment): ';
    const cases: [unknown, string][] = [
      [deployment({ replicas: '3' }), '.spec.replicas: expected numeric (int or float), got string'],
      [deployment({ replicas: { a: 1 } }), '.spec.replicas: expected numeric (int or float), got map[string]interface {}'],
      [deployment({ paused: 1 }), '.spec.paused: expected boolean, got &{1}'],
      [deployment({ selector: 'x' }), '.spec.selector: expected map, got &{x}'],
      [deployment({}, { labels: { a: true } }), '.metadata.labels.a: expected string, got &value.valueUnstructured{Value:true}'],
      [deployment({ template: { spec: { containers: 'x' } } }), '.spec.template.spec.containers: expected list, got &{x}'],
      [deployment({ template: { spec: { containers: [{ name: 'c', image: 'i', ports: [{ containerPort: '80' }] }] } } }),
        '.spec.template.spec.containers[name="c"].ports[containerPort="80",protocol="TCP"].containerPort: expected numeric (int or float), got string'],
    ];
    for (const [body, detail] of cases) {
      const r = await apply(body);
      assert.equal(r.status, 500, detail);
      assert.equal(r.json().message, prefix + detail);
    }
    // A null is no value: nothing to type.
    assert.equal((await apply(deployment({ replicas: null, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'i' }] } } }))).status, 201);
  });

  it('fails for a keyed list naming one key twice (two containers of one name), or a set one value, as structured-merge-diff does', async () => {
    const labels = { app: 'dup' };
    const containers = [{ name: 'z', image: 'x' }, { name: 'z', image: 'y' }];
    const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'dup' }, spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers } } } };
    const r = await call(suite.server, 'PATCH', '/apis/apps/v1/namespaces/default/deployments/dup?fieldManager=test', { body: deployment, contentType: APPLY });
    assert.equal(r.status, 500, r.body);
    assert.equal(r.json().message, 'failed to create typed patch object (/dup; apps/v1, Kind=Deployment): .spec.template.spec.containers: duplicate entries for key [name="z"]');
    const ports = [{ containerPort: 80, protocol: 'TCP' }, { containerPort: 80, protocol: 'TCP' }];
    const nested = { ...deployment, spec: { ...deployment.spec, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'x', ports }] } } } };
    const twice = await call(suite.server, 'PATCH', '/apis/apps/v1/namespaces/default/deployments/dup?fieldManager=test', { body: nested, contentType: APPLY });
    assert.equal(twice.json().message, 'failed to create typed patch object (/dup; apps/v1, Kind=Deployment): .spec.template.spec.containers[name="c"].ports: duplicate entries for key [containerPort=80,protocol="TCP"]');
    assert.equal((await call(suite.server, 'GET', '/apis/apps/v1/namespaces/default/deployments/dup')).status, 404);
    const finalizers = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'dup', finalizers: ['example.com/x', 'example.com/x'] } };
    const set = await call(suite.server, 'PATCH', '/api/v1/namespaces/default/configmaps/dup?fieldManager=test', { body: finalizers, contentType: APPLY });
    assert.equal(set.json().message, 'failed to create typed patch object (/dup; /v1, Kind=ConfigMap): .metadata.finalizers: duplicate entries for key [="example.com/x"]');
  });
});
