// The /openapi/v2 and /openapi/v3 documents over HTTP: kube-openapi's definition names and
// extensions, the v3 index with hashed URLs, the caching headers, and CRD schemas coming and going.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../server/httpClient.ts';
import { suiteServer } from '../server/suiteServer.ts';
import { CRDS, cronTabCrd } from './crdFixtures.ts';

const sim = suiteServer();

describe('/openapi/v2', () => {
  it('defines the built-in kinds as kube-apiserver names them, with their group/version/kind and patch metadata', async () => {
    const doc = (await call(sim.server, 'GET', '/openapi/v2')).json();
    assert.equal(doc.swagger, '2.0');
    const deployment = doc.definitions['io.k8s.api.apps.v1.Deployment'];
    assert.deepEqual(deployment['x-kubernetes-group-version-kind'], [{ group: 'apps', kind: 'Deployment', version: 'v1' }]);
    assert.equal(deployment.properties.spec.$ref, '#/definitions/io.k8s.api.apps.v1.DeploymentSpec');
    assert.deepEqual(doc.definitions['io.k8s.api.apps.v1.DeploymentSpec'].required, ['selector', 'template']);
    const containers = doc.definitions['io.k8s.api.core.v1.PodSpec'].properties.containers;
    assert.equal(containers['x-kubernetes-patch-merge-key'], 'name');
    assert.equal(containers['x-kubernetes-patch-strategy'], 'merge');
    const ports = doc.definitions['io.k8s.api.core.v1.Container'].properties.ports;
    assert.equal(ports['x-kubernetes-list-type'], 'map');
    assert.deepEqual(ports['x-kubernetes-list-map-keys'], ['containerPort', 'protocol']);
    assert.deepEqual(doc.definitions['io.k8s.apimachinery.pkg.util.intstr.IntOrString'].format, 'int-or-string');
    assert.equal(doc.definitions['io.k8s.apimachinery.pkg.apis.meta.v1.Time'].format, 'date-time');
    assert.equal(doc.definitions['io.k8s.apimachinery.pkg.api.resource.Quantity'].type, 'string');
  });

  it('lists PATCH with fieldValidation for each kind, so kubectl leaves field validation to the server', async () => {
    const doc = (await call(sim.server, 'GET', '/openapi/v2')).json();
    const patch = doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'].patch;
    assert.deepEqual(patch['x-kubernetes-group-version-kind'], { group: 'apps', kind: 'Deployment', version: 'v1' });
    assert.ok(patch.parameters.some((p: { name: string; in: string }) => p.name === 'fieldValidation' && p.in === 'query'));
    assert.ok(doc.paths['/api/v1/namespaces/{name}']);
    assert.ok(doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale'].put);
  });

  it('answers 304 to an If-None-Match with its ETag, and the protobuf form with its own', async () => {
    const first = await call(sim.server, 'GET', '/openapi/v2');
    assert.match(String(first.headers.etag), /^"[0-9A-F]{128}"$/);
    const again = await call(sim.server, 'GET', '/openapi/v2', { headers: { 'If-None-Match': String(first.headers.etag) } });
    assert.equal(again.status, 304);
    const proto = await call(sim.server, 'GET', '/openapi/v2', { accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' });
    assert.equal(proto.status, 200);
    assert.notEqual(proto.headers.etag, first.headers.etag);
  });
});

describe('/openapi/v3', () => {
  it('indexes every served group version with a hashed URL that is immutable while current', async () => {
    const index = (await call(sim.server, 'GET', '/openapi/v3')).json();
    const url: string = index.paths['apis/apps/v1'].serverRelativeURL;
    assert.match(url, /^\/openapi\/v3\/apis\/apps\/v1\?hash=[0-9A-F]{128}$/);
    assert.ok(index.paths['api/v1']);
    const doc = await call(sim.server, 'GET', url);
    assert.equal(doc.status, 200);
    assert.equal(doc.headers['cache-control'], 'public, immutable');
    const stale = await call(sim.server, 'GET', '/openapi/v3/apis/apps/v1?hash=0123');
    assert.equal(stale.status, 301);
    assert.equal(stale.headers.location, url);
    assert.equal((await call(sim.server, 'GET', '/openapi/v3/apis/nothing.example.com/v1')).status, 404);
  });

  it('has documents for the discovery and version endpoints too, as kube-apiserver lists them', async () => {
    const index = (await call(sim.server, 'GET', '/openapi/v3')).json();
    for (const key of ['api', 'apis', 'apis/apps', 'version']) assert.ok(index.paths[key], `no ${key} in the index`);
    const group = (await call(sim.server, 'GET', index.paths['apis/apps'].serverRelativeURL)).json();
    assert.deepEqual(group.paths['/apis/apps/'].get.responses['200'].content['application/json'].schema, { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.APIGroup' });
    assert.ok(group.components.schemas['io.k8s.apimachinery.pkg.apis.meta.v1.APIGroup']);
    const apps = (await call(sim.server, 'GET', '/openapi/v3/apis/apps/v1')).json();
    assert.equal(apps.paths['/apis/apps/v1/'].get.operationId, 'getAppsV1APIResources');
    const v2 = (await call(sim.server, 'GET', '/openapi/v2')).json();
    assert.equal(v2.paths['/version/'].get.responses['200'].schema.$ref, '#/definitions/io.k8s.apimachinery.pkg.version.Info');
  });

  it('holds a group version\'s schemas in v3 form: allOf refs, zero defaults, int-or-string as oneOf', async () => {
    const doc = (await call(sim.server, 'GET', '/openapi/v3/apis/apps/v1')).json();
    assert.equal(doc.openapi, '3.0.0');
    const schemas = doc.components.schemas;
    assert.deepEqual(schemas['io.k8s.api.apps.v1.Deployment'].properties.spec.allOf, [{ $ref: '#/components/schemas/io.k8s.api.apps.v1.DeploymentSpec' }]);
    assert.deepEqual(schemas['io.k8s.api.apps.v1.Deployment'].properties.spec.default, {});
    assert.equal(schemas['io.k8s.api.core.v1.Container'].properties.name.default, '');
    assert.deepEqual(schemas['io.k8s.apimachinery.pkg.util.intstr.IntOrString'].oneOf, [{ type: 'integer' }, { type: 'string' }]);
    assert.equal(schemas['io.k8s.api.core.v1.ConfigMap'], undefined, 'only what apps/v1 reaches');
    assert.ok(doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments'].post);
  });

  it('publishes a CRD\'s schema while it is served, and drops it with the CRD', async () => {
    sim.cluster.create(CRDS, '', cronTabCrd());
    const index = (await call(sim.server, 'GET', '/openapi/v3')).json();
    const doc = (await call(sim.server, 'GET', index.paths['apis/stable.example.com/v1'].serverRelativeURL)).json();
    const cronTab = doc.components.schemas['com.example.stable.v1.CronTab'];
    assert.deepEqual(cronTab['x-kubernetes-group-version-kind'], [{ group: 'stable.example.com', kind: 'CronTab', version: 'v1' }]);
    assert.deepEqual(cronTab.properties.spec.required, ['cronSpec']);
    assert.ok(doc.components.schemas['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']);
    const v2 = (await call(sim.server, 'GET', '/openapi/v2')).json();
    assert.equal(v2.definitions['com.example.stable.v1.CronTabList'].properties.items.items.$ref, '#/definitions/com.example.stable.v1.CronTab');
    sim.cluster.delete(CRDS, '', 'crontabs.stable.example.com');
    assert.equal((await call(sim.server, 'GET', '/openapi/v3')).json().paths['apis/stable.example.com/v1'], undefined);
    assert.equal((await call(sim.server, 'GET', '/openapi/v2')).json().definitions['com.example.stable.v1.CronTab'], undefined);
  });
});
