// The write observer over HTTP: each write record names the user the request was authenticated as
// (the impersonated one when impersonating), the verb and the new resourceVersion, says whether
// anything changed, and is told before the client has its answer or any watcher the event.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { WriteRecord } from '../../../../src/sim/store/types.ts';
import { call, openWatch } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const suite = suiteServer();

const CHECKED = { 'Impersonate-User': 'controller-lab:checked', 'Impersonate-Group': 'system:masters' };
const PATH = '/api/v1/namespaces/default/configmaps';

interface Observed {
  record: WriteRecord;
  /** Whether the client had its answer when the listener ran. */
  answered: boolean;
  /** Lines a watch opened before had received when the listener ran. */
  watched: number;
}

describe('write records over HTTP', () => {
  it('name the user, verb and resourceVersion, say whether the object changed, and come before the answer', async () => {
    const watch = await openWatch(suite.server, `${PATH}?watch=1&resourceVersion=${suite.cluster.resourceVersion}`);
    let answered = false;
    const observed: Observed[] = [];
    const stop = suite.cluster.onWrite((record) => {
      if (record.resource === 'configmaps') observed.push({ record, answered, watched: watch.lines.length });
    }, { unchanged: true });
    const write = async (method: string, path: string, body: unknown, headers: Record<string, string> = {}, contentType?: string) => {
      answered = false;
      const r = await call(suite.server, method, path, { body, headers, ...(contentType ? { contentType } : {}) });
      answered = true;
      assert.ok(r.status < 300, r.body);
      return r.json() as { metadata: { resourceVersion: string } };
    };

    const created = await write('POST', PATH, { metadata: { name: 'observed' }, data: { k: 'v' } }, CHECKED);
    const same = await write('PUT', `${PATH}/observed`, { metadata: { name: 'observed', resourceVersion: created.metadata.resourceVersion }, data: { k: 'v' } }, CHECKED);
    const patched = await write('PATCH', `${PATH}/observed`, { data: { k: 'w' } }, {}, 'application/merge-patch+json');
    stop();

    assert.equal(same.metadata.resourceVersion, created.metadata.resourceVersion);
    assert.deepEqual(observed.map(({ record: r }) => [r.verb, r.type, `${r.namespace}/${r.name}`, String(r.resourceVersion), r.changed, r.user]), [
      ['create', 'ADDED', 'default/observed', created.metadata.resourceVersion, true, 'controller-lab:checked'],
      ['update', 'MODIFIED', 'default/observed', created.metadata.resourceVersion, false, 'controller-lab:checked'],
      ['patch', 'MODIFIED', 'default/observed', patched.metadata.resourceVersion, true, 'controller-lab'],
    ]);
    assert.deepEqual(observed.map((o) => o.answered), [false, false, false]);
    await watch.waitForLines(2);
    assert.deepEqual(observed.filter((o) => o.record.changed).map((o) => o.watched), [0, 1]);
    watch.close();
  });
});
