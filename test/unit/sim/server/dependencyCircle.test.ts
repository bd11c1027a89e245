// Objects that own each other in a circle: a Foreground delete of one takes them all, as the
// garbage collector does, instead of walking the circle forever.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const suite = suiteServer();
const CMS = '/api/v1/namespaces/default/configmaps';

describe('a dependency circle', () => {
  it('is deleted whole by a Foreground delete of one of its objects', async () => {
    const uids: string[] = [];
    for (const name of ['c1', 'c2', 'c3']) {
      const r = await call(suite.server, 'POST', CMS, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { circle: 'yes' } } } });
      assert.equal(r.status, 201, r.body);
      uids.push(r.json().metadata.uid);
    }
    // c1 is owned by c3, c2 by c1, c3 by c2.
    for (const [i, name] of ['c1', 'c2', 'c3'].entries()) {
      const owner = (i + 2) % 3;
      const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: `c${owner + 1}`, uid: uids[owner], controller: true, blockOwnerDeletion: true };
      const r = await call(suite.server, 'PATCH', `${CMS}/${name}`, { body: { metadata: { ownerReferences: [ref] } }, contentType: 'application/strategic-merge-patch+json' });
      assert.equal(r.status, 200, r.body);
    }
    const deleted = await call(suite.server, 'DELETE', `${CMS}/c1`, { body: { propagationPolicy: 'Foreground', preconditions: { uid: uids[0] } } });
    assert.equal(deleted.status, 200, deleted.body);
    const left = (await call(suite.server, 'GET', `${CMS}?labelSelector=circle%3Dyes`)).json();
    assert.deepEqual(left.items, []);
  });
});
