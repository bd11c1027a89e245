// ComponentStatuses over HTTP as kube-apiserver v1.28 serves them: made up on each read (get and
// list only, no resourceVersion, no watch), printed with STATUS, MESSAGE and ERROR, and answered
// with the kind's deprecation warning.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../server/httpClient.ts';
import { suiteServer } from '../server/suiteServer.ts';

const suite = suiteServer();
const CS = '/api/v1/componentstatuses';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

describe('ComponentStatus', () => {
  it('is in discovery as get and list only, with its short name', async () => {
    const resources = (await call(suite.server, 'GET', '/api/v1')).json().resources;
    const cs = resources.find((r: { name: string }) => r.name === 'componentstatuses');
    assert.deepEqual(cs, { name: 'componentstatuses', singularName: 'componentstatus', namespaced: false, kind: 'ComponentStatus', verbs: ['get', 'list'], shortNames: ['cs'] });
  });

  it('lists the scheduler, the controller manager and etcd, healthy, with the deprecation warning', async () => {
    const r = await call(suite.server, 'GET', CS);
    assert.equal(r.status, 200, r.body);
    assert.equal(r.headers['warning'], '299 - "v1 ComponentStatus is deprecated in v1.19+"');
    const list = r.json();
    assert.equal(list.kind, 'ComponentStatusList');
    assert.deepEqual(list.metadata, {});
    assert.deepEqual(list.items.map((i: { metadata: { name: string } }) => i.metadata.name).sort(), ['controller-manager', 'etcd-0', 'scheduler']);
    assert.deepEqual(list.items[0].conditions, [{ type: 'Healthy', status: 'True', message: 'ok' }]);
  });

  it('prints as kubectl get cs shows it', async () => {
    const table = (await call(suite.server, 'GET', CS, { accept: TABLE })).json();
    assert.deepEqual(table.columnDefinitions.map((c: { name: string }) => c.name), ['Name', 'Status', 'Message', 'Error']);
    assert.deepEqual(table.rows.find((r: { cells: string[] }) => r.cells[0] === 'etcd-0').cells, ['etcd-0', 'Healthy', 'ok', '']);
  });

  it('reads one by name; an unknown name is the registry\'s 500', async () => {
    const one = await call(suite.server, 'GET', `${CS}/scheduler`);
    assert.equal(one.status, 200, one.body);
    assert.equal(one.json().kind, 'ComponentStatus');
    assert.equal(one.json().metadata.creationTimestamp, null);
    const missing = await call(suite.server, 'GET', `${CS}/nope`);
    assert.equal(missing.status, 500);
    assert.equal(missing.json().message, 'Internal error occurred: Component not found: nope');
  });

  it('takes no watch and no writes', async () => {
    const watch = await call(suite.server, 'GET', `${CS}?watch=true`);
    assert.equal(watch.status, 405);
    assert.equal(watch.json().message, 'watch is not supported on resources of kind "componentstatuses"');
    const create = await call(suite.server, 'POST', CS, { body: { apiVersion: 'v1', kind: 'ComponentStatus', metadata: { name: 'x' } } });
    assert.equal(create.status, 405);
    assert.equal((await call(suite.server, 'DELETE', `${CS}/etcd-0`)).status, 405);
  });
});
