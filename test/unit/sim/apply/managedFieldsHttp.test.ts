// managedFields and server-side apply over HTTP, request by request as client-go and client-node
// send them: who the manager is, what an Update entry records, the option errors, clearing
// managedFields, status writes, and custom resources merged by their CRD's list keys.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { suiteServer } from '../server/suiteServer.ts';
import { call, type Answer } from '../server/httpClient.ts';

const suite = suiteServer();
const CMS = '/api/v1/namespaces/default/configmaps';
const APPLY = 'application/apply-patch+yaml';
const MERGE = 'application/merge-patch+json';

const req = (method: string, path: string, body?: unknown, contentType?: string, headers?: Record<string, string>): Promise<Answer> =>
  call(suite.server, method, path, { body, contentType, headers });

interface Entry { manager: string; operation: string; apiVersion: string; subresource?: string; fieldsV1: Record<string, unknown> }
const entries = (a: Answer): Entry[] => (a.json().metadata.managedFields ?? []) as Entry[];
const summary = (a: Answer): string[] => entries(a).map((e) => `${e.manager}/${e.operation}${e.subresource ? `/${e.subresource}` : ''}`);

describe('managedFields on writes that are not apply', () => {
  it('a create records an Update entry named after the User-Agent, with `.` for maps it added', async () => {
    const created = await req('POST', CMS, { metadata: { name: 'ua', labels: { app: 'x' } }, data: { k: 'v' } }, undefined, { 'User-Agent': 'my-operator/v0.1.0 (linux/amd64) kubernetes/abc' });
    assert.equal(created.status, 201);
    const [entry] = entries(created);
    assert.deepEqual(entry && { manager: entry.manager, operation: entry.operation, apiVersion: entry.apiVersion, fieldsV1: entry.fieldsV1 }, {
      manager: 'my-operator', operation: 'Update', apiVersion: 'v1',
      fieldsV1: { 'f:data': { '.': {}, 'f:k': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } },
    });
  });

  it('a create owns no null and no empty omitempty field of a built-in kind, as its Go type reads it; a custom resource\'s are as sent', async () => {
    // Go clients send a template's `creationTimestamp: null`; kube-apiserver v1.28.4 recorded these fields.
    const pod = await req('POST', '/api/v1/namespaces/default/pods', {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'nulls', creationTimestamp: null },
      spec: { containers: [{ name: 'c', image: 'i', resources: {}, env: null, ports: [] }], nodeSelector: {}, tolerations: null }, status: {},
    });
    assert.equal(pod.status, 201, pod.body);
    assert.deepEqual(entries(pod)[0]?.fieldsV1, {
      'f:spec': {
        'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:image': {}, 'f:imagePullPolicy': {}, 'f:name': {}, 'f:resources': {}, 'f:terminationMessagePath': {}, 'f:terminationMessagePolicy': {} } },
        'f:dnsPolicy': {}, 'f:enableServiceLinks': {}, 'f:restartPolicy': {}, 'f:schedulerName': {}, 'f:securityContext': {}, 'f:terminationGracePeriodSeconds': {},
      },
    });
    const labels = { app: 'web' };
    const deployment = await req('POST', '/apis/apps/v1/namespaces/default/deployments', {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'nulls', creationTimestamp: null },
      spec: { selector: { matchLabels: labels }, template: { metadata: { creationTimestamp: null, labels }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
    });
    assert.equal(deployment.status, 201, deployment.body);
    const template = (entries(deployment)[0]?.fieldsV1['f:spec'] as Record<string, Record<string, unknown>>)['f:template'];
    assert.deepEqual(template?.['f:metadata'], { 'f:labels': { '.': {}, 'f:app': {} } });
    // A template whose metadata is only that null: its metadata is the zero value's, owned by no one.
    const job = await req('POST', '/apis/batch/v1/namespaces/default/jobs', {
      apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'nulls' },
      spec: { template: { metadata: { creationTimestamp: null }, spec: { containers: [{ name: 'c', image: 'i' }], restartPolicy: 'Never' } } }, status: {},
    });
    assert.equal(job.status, 201, job.body);
    const jobTemplate = (entries(job)[0]?.fieldsV1['f:spec'] as Record<string, Record<string, unknown>>)['f:template'];
    assert.deepEqual(Object.keys(jobTemplate ?? {}), ['f:spec']);
  });

  it('a Service\'s IP families are filled in by its storage, after the field manager: set, but not owned by the creator', async () => {
    const SVCS = '/api/v1/namespaces/default/services';
    const created = await req('POST', SVCS, { apiVersion: 'v1', kind: 'Service', metadata: { name: 'families' }, spec: { ports: [{ port: 80 }], selector: { a: 'b' } } });
    assert.equal(created.status, 201, created.body);
    assert.deepEqual([created.json().spec.ipFamilies, created.json().spec.ipFamilyPolicy], [['IPv4'], 'SingleStack']);
    // kube-apiserver v1.28.4 recorded these fields.
    assert.deepEqual(entries(created)[0]?.fieldsV1, {
      'f:spec': {
        'f:internalTrafficPolicy': {}, 'f:ports': { '.': {}, 'k:{"port":80,"protocol":"TCP"}': { '.': {}, 'f:port': {}, 'f:protocol': {}, 'f:targetPort': {} } },
        'f:selector': {}, 'f:sessionAffinity': {}, 'f:type': {},
      },
    });
    const { ipFamilies: _f, ipFamilyPolicy: _p, ...rest } = created.json().spec;
    const replaced = await req('PUT', `${SVCS}/families`, { ...created.json(), spec: rest });
    assert.equal(replaced.status, 200, replaced.body);
    assert.deepEqual([replaced.json().spec.ipFamilies, replaced.json().spec.ipFamilyPolicy], [['IPv4'], 'SingleStack'], 'an update leaving them out keeps them');
  });

  it('?fieldManager names the manager; a second manager changing a field takes it from the first', async () => {
    await req('POST', `${CMS}?fieldManager=first`, { metadata: { name: 'two' }, data: { a: '1', b: '1' } });
    const patched = await req('PATCH', `${CMS}/two?fieldManager=second`, { data: { b: '2' } }, MERGE);
    assert.equal(patched.status, 200);
    const byManager = Object.fromEntries(entries(patched).map((e) => [e.manager, e.fieldsV1]));
    assert.deepEqual(byManager, { first: { 'f:data': { '.': {}, 'f:a': {} } }, second: { 'f:data': { 'f:b': {} } } });
  });

  it('a write that changes nothing leaves managedFields (and the resourceVersion) alone', async () => {
    const created = await req('POST', `${CMS}?fieldManager=first`, { metadata: { name: 'same' }, data: { a: '1' } });
    const again = await req('PATCH', `${CMS}/same?fieldManager=other`, { data: { a: '1' } }, MERGE);
    assert.equal(again.json().metadata.resourceVersion, created.json().metadata.resourceVersion);
    assert.deepEqual(summary(again), ['first/Update']);
  });

  it('`[{}]` clears managedFields, and later updates do not start tracking again; an apply does', async () => {
    await req('POST', `${CMS}?fieldManager=first`, { metadata: { name: 'cleared' }, data: { a: '1' } });
    const cleared = await req('PATCH', `${CMS}/cleared`, { metadata: { managedFields: [{}] } }, MERGE);
    assert.equal(cleared.json().metadata.managedFields, undefined);
    const updated = await req('PATCH', `${CMS}/cleared?fieldManager=x`, { data: { b: '2' } }, MERGE);
    assert.equal(updated.json().metadata.managedFields, undefined);
    const applied = await req('PATCH', `${CMS}/cleared?fieldManager=applier`, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cleared}\ndata: {c: "3"}\n', APPLY);
    assert.deepEqual(summary(applied), ['applier/Apply', 'before-first-apply/Update']);
  });

  it('managedFields a client sends that the API server would not decode are ignored (the stored ones stay)', async () => {
    await req('POST', `${CMS}?fieldManager=first`, { metadata: { name: 'junk' }, data: { a: '1' } });
    const junk = await req('PATCH', `${CMS}/junk?fieldManager=second`, { metadata: { managedFields: [{ manager: 'evil', operation: 'Delete', fieldsType: 'FieldsV1' }] }, data: { b: '2' } }, MERGE);
    assert.equal(junk.status, 200);
    assert.deepEqual(summary(junk).sort(), ['first/Update', 'second/Update']);
  });
});

describe('server-side apply requests', () => {
  it('an apply without fieldManager answers 422 as the API server does', async () => {
    const r = await req('PATCH', `${CMS}/nofm`, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: nofm}\n', APPLY);
    assert.equal(r.status, 422);
    assert.equal(r.json().message, 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');
  });

  it('force on a patch that is not an apply answers 422', async () => {
    await req('POST', CMS, { metadata: { name: 'force' } });
    const r = await req('PATCH', `${CMS}/force?force=true`, { data: { a: '1' } }, MERGE);
    assert.equal(r.status, 422);
    assert.equal(r.json().message, 'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch');
  });

  it('an applied configuration may not carry managedFields (400)', async () => {
    const r = await req('PATCH', `${CMS}/withmf?fieldManager=a`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'withmf', managedFields: [] } }, APPLY);
    assert.equal(r.status, 400);
    assert.equal(r.json().message, 'metadata.managedFields must be nil');
  });

  it('an apply that changes nothing (co-owning a value already there) records no time, so its entry sorts first', async () => {
    const config = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: co-owned\ndata:\n  a: "1"\n';
    assert.equal((await req('PATCH', `${CMS}/co-owned?fieldManager=first`, config, APPLY)).status, 201);
    const second = await req('PATCH', `${CMS}/co-owned?fieldManager=second`, config, APPLY);
    assert.equal(second.status, 200, second.body);
    // As kube-apiserver v1.28.4 answered: both own data.a; only the one that changed the object has a time.
    assert.deepEqual(entries(second).map((e) => [e.manager, 'time' in e, e.fieldsV1]), [
      ['second', false, { 'f:data': { 'f:a': {} } }],
      ['first', true, { 'f:data': { 'f:a': {} } }],
    ]);
  });

  it('a conflict is a 409 with one FieldManagerConflict cause per field', async () => {
    await req('POST', `${CMS}?fieldManager=owner`, { metadata: { name: 'conflict' }, data: { a: '1', b: '1' } });
    const r = await req('PATCH', `${CMS}/conflict?fieldManager=applier`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'conflict' }, data: { a: '2', b: '2' } }, APPLY);
    assert.equal(r.status, 409);
    const status = r.json();
    assert.equal(status.reason, 'Conflict');
    assert.equal(status.message, 'Apply failed with 2 conflicts: conflicts with "owner" using v1:\n- .data.a\n- .data.b');
    assert.deepEqual(status.details.causes, [
      { reason: 'FieldManagerConflict', message: 'conflict with "owner" using v1', field: '.data.a' },
      { reason: 'FieldManagerConflict', message: 'conflict with "owner" using v1', field: '.data.b' },
    ]);
    const same = await req('PATCH', `${CMS}/conflict?fieldManager=applier`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'conflict' }, data: { a: '1' } }, APPLY);
    assert.equal(same.status, 200, 'applying the value already there is no conflict');
    assert.deepEqual(summary(same), ['applier/Apply', 'owner/Update'], 'both own .data.a now');
  });

  it('status applied through /status is owned with subresource status; spec in it is ignored', async () => {
    const deps = '/apis/apps/v1/namespaces/default/deployments';
    const spec = { replicas: 1, selector: { matchLabels: { app: 's' } }, template: { metadata: { labels: { app: 's' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } };
    assert.equal((await req('POST', `${deps}?fieldManager=creator`, { metadata: { name: 's' }, spec })).status, 201);
    const r = await req('PATCH', `${deps}/s/status?fieldManager=ctrl`, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 's' }, spec: { replicas: 5 }, status: { replicas: 1, readyReplicas: 1, conditions: [{ type: 'Available', status: 'True' }] } }, APPLY);
    assert.equal(r.status, 200, r.body);
    assert.equal(r.json().spec.replicas, 1);
    const ctrl = entries(r).find((e) => e.manager === 'ctrl');
    assert.deepEqual(ctrl && { subresource: ctrl.subresource, operation: ctrl.operation, fieldsV1: ctrl.fieldsV1 }, {
      subresource: 'status', operation: 'Apply',
      fieldsV1: { 'f:status': { 'f:conditions': { 'k:{"type":"Available"}': { '.': {}, 'f:status': {}, 'f:type': {} } }, 'f:readyReplicas': {}, 'f:replicas': {} } },
    });
  });

  it('built-in kinds follow their OpenAPI definitions: a nodeSelector is an atomic map, so a second applier conflicts on it whole', async () => {
    const deps = '/apis/apps/v1/namespaces/default/deployments';
    const deploy = (nodeSelector: Record<string, string>) => ({
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'ns' },
      spec: { selector: { matchLabels: { app: 'ns' } }, template: { metadata: { labels: { app: 'ns' } }, spec: { nodeSelector, containers: [{ name: 'c', image: 'i' }] } } },
    });
    assert.equal((await req('PATCH', `${deps}/ns?fieldManager=a`, deploy({ disk: 'ssd' }), APPLY)).status, 201);
    const b = await req('PATCH', `${deps}/ns?fieldManager=b`, deploy({ zone: 'x' }), APPLY);
    assert.equal(b.status, 409);
    assert.equal(b.json().message, 'Apply failed with 1 conflict: conflict with "a": .spec.template.spec.nodeSelector');
  });

  it("custom resources merge lists by their CRD's x-kubernetes-list-map-keys, and replace atomic lists", async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
        versions: [{
          name: 'v1', served: true, storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: {
            parts: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, size: { type: 'integer' } } } },
            tags: { type: 'array', items: { type: 'string' } },
          } } } } },
        }],
      },
    };
    const created = await req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
    assert.equal(created.status, 201, created.body);
    const widgets = '/apis/example.com/v1/namespaces/default/widgets';
    const a = await req('PATCH', `${widgets}/w?fieldManager=a`, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { parts: [{ name: 'x', size: 1 }], tags: ['t1'] } }, APPLY);
    assert.equal(a.status, 201, a.body);
    const b = await req('PATCH', `${widgets}/w?fieldManager=b`, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { parts: [{ name: 'y', size: 2 }] } }, APPLY);
    assert.equal(b.status, 200, b.body);
    assert.deepEqual(b.json().spec, { parts: [{ name: 'x', size: 1 }, { name: 'y', size: 2 }], tags: ['t1'] });
    const c = await req('PATCH', `${widgets}/w?fieldManager=b`, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { tags: ['t2'] } }, APPLY);
    assert.equal(c.status, 409, 'tags is an atomic list owned by a');
    assert.match(c.json().message, /conflict with "a": \.spec\.tags/);
  });
});
