// What a client reads back is what kube-apiserver would answer, byte for byte where clients compare:
// built-in kinds are listed with bare items, a new object's empty Go status is printed, and a
// dry-run delete asked for in the DeleteOptions body changes nothing.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const suite = suiteServer();

const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';

function deployment(name: string) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: { app: name } },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  };
}

describe('lists of built-in kinds', () => {
  it('carry items without kind and apiVersion, as kube-apiserver sends them; custom resources keep theirs', async () => {
    assert.equal((await call(suite.server, 'POST', DEPLOYMENTS, { body: deployment('listed') })).status, 201);
    const list = await call(suite.server, 'GET', `${DEPLOYMENTS}?labelSelector=app%3Dlisted`);
    assert.equal(list.status, 200);
    const body = list.json();
    assert.equal(body.kind, 'DeploymentList');
    assert.equal(body.items.length, 1);
    assert.equal(body.items[0].kind, undefined);
    assert.equal(body.items[0].apiVersion, undefined);
    assert.equal(body.items[0].metadata.name, 'listed');
    // A watch event's object still says what it is.
    const one = await call(suite.server, 'GET', `${DEPLOYMENTS}/listed`);
    assert.equal(one.json().kind, 'Deployment');

    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
      },
    };
    assert.equal((await call(suite.server, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd })).status, 201);
    const widgets = '/apis/example.com/v1/namespaces/default/widgets';
    assert.equal((await call(suite.server, 'POST', widgets, { body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } } })).status, 201);
    const crList = (await call(suite.server, 'GET', widgets)).json();
    assert.equal(crList.items[0].kind, 'Widget');
    assert.equal(crList.items[0].apiVersion, 'example.com/v1');
  });
});

describe('a new object\'s status', () => {
  it('is the empty struct Go prints: `status: {}` for a Deployment, zero counts for a DaemonSet', async () => {
    const created = await call(suite.server, 'POST', DEPLOYMENTS, { body: { ...deployment('fresh'), status: { replicas: 3 } } });
    assert.equal(created.status, 201);
    assert.deepEqual(created.json().status, {});
    assert.deepEqual((await call(suite.server, 'GET', `${DEPLOYMENTS}/fresh`)).json().status, {});
    const ds = await call(suite.server, 'POST', '/apis/apps/v1/namespaces/default/daemonsets', {
      body: { ...deployment('ds'), kind: 'DaemonSet' },
    });
    assert.equal(ds.status, 201, ds.body);
    assert.deepEqual(ds.json().status, { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 });
  });

  it('of a Node is kept as registered, with the empty nodeInfo and daemonEndpoints Go prints', async () => {
    const created = await call(suite.server, 'POST', '/api/v1/nodes', { body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'read-back-node' }, spec: {}, status: { nodeInfo: { architecture: 'amd64' } } } });
    assert.equal(created.status, 201, created.body);
    const status = (await call(suite.server, 'GET', '/api/v1/nodes/read-back-node')).json().status;
    assert.deepEqual(status.daemonEndpoints, { kubeletEndpoint: { Port: 0 } });
    assert.equal(status.nodeInfo.architecture, 'amd64');
    assert.equal(status.nodeInfo.kubeletVersion, '');
    assert.equal(status.nodeInfo.machineID, '');
  });
});

describe('dry-run delete', () => {
  it('asked for in the DeleteOptions body (as client-go sends it) answers a Status naming the object and deletes nothing', async () => {
    assert.equal((await call(suite.server, 'POST', DEPLOYMENTS, { body: deployment('kept') })).status, 201);
    const dry = await call(suite.server, 'DELETE', `${DEPLOYMENTS}/kept`, { body: { kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'] } });
    assert.equal(dry.status, 200, dry.body);
    assert.deepEqual({ ...dry.json(), details: { ...dry.json().details, uid: 'u' } }, {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'kept', group: 'apps', kind: 'deployments', uid: 'u' },
    });
    assert.equal((await call(suite.server, 'GET', `${DEPLOYMENTS}/kept`)).status, 200);

    const all = await call(suite.server, 'DELETE', `${DEPLOYMENTS}?labelSelector=app%3Dkept`, { body: { kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'] } });
    assert.equal(all.status, 200, all.body);
    assert.equal(all.json().items.length, 1);
    assert.equal((await call(suite.server, 'GET', `${DEPLOYMENTS}/kept`)).status, 200);
  });

  it('with an unknown dry-run value is refused with 422, as the API server validates DeleteOptions', async () => {
    const bad = await call(suite.server, 'DELETE', `${DEPLOYMENTS}/kept`, { body: { kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['Bye'] } });
    assert.equal(bad.status, 422);
    assert.equal(bad.json().message, 'DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Bye"}: supported values: "All"');
    assert.equal((await call(suite.server, 'GET', `${DEPLOYMENTS}/kept`)).status, 200);
  });
});
