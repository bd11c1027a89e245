// Many clients writing the same object while a mutating webhook is called for each write: every
// unconditional patch lands (a write whose object moved is admitted again), none is lost, and
// every stored version carries the webhook's change.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { admissionSuite, call, configMap, configure, jsonPatch, webhook } from './webhookServer.ts';

const s = admissionSuite();
const CM = '/api/v1/namespaces/default/configmaps';

describe('concurrent writes under a mutating webhook', () => {
  it('lands every one of 8 concurrent merge patches to one object, each with the webhook\'s change', async () => {
    await call(s.sim, 'POST', CM, { body: configMap('shared', {}) });
    s.webhook.on('/stamp', async (review) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { allowed: true, ...jsonPatch([{ op: 'add', path: '/metadata/annotations', value: { stamped: String(Object.keys(review.request.object.data ?? {}).length) } }]) };
    });
    await configure(s.sim, 'mutating', 'stamp', [webhook('stamp.example.com', `${s.webhook.url}/stamp`, s.webhook.caBundle, {
      rules: [{ operations: ['UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    })]);

    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) =>
      call(s.sim, 'PATCH', `${CM}/shared`, { body: { data: { [`k${i}`]: 'v' } }, contentType: 'application/merge-patch+json' })));
    for (const a of answers) assert.equal(a.status, 200, a.body);
    const stored = (await call(s.sim, 'GET', `${CM}/shared`)).json();
    assert.equal(Object.keys(stored.data).length, 8);
    assert.equal(stored.metadata.annotations.stamped, '8');
  });
});
