import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runCli } from './support/runCli.ts';
import { configMap, sendList, startScriptedCluster, watchLine } from './support/scriptedCluster.ts';

// --exit-when-seen with --dump-cache after a 410: the object that triggers the exit comes in the
// relist, and the relist's deletions (queued after its items) must be in the cache before the dump.

type T = { after(fn: () => unknown): void };

const before = Array.from({ length: 60 }, (_, i) => configMap(`old-${String(i).padStart(2, '0')}`, String(100 + i)));
// The relist keeps every third old object, changes none, and brings the object we wait for.
const kept = before.filter((_, i) => i % 3 === 0);
const after = [...kept, configMap('sentinel', '300')];
const expired = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 410, reason: 'Expired', message: 'too old resource version: 200 (290)' };

function rows(items: Record<string, unknown>[]) {
  return items
    .map((o) => o.metadata as { namespace: string; name: string; uid: string; resourceVersion: string })
    .map((m) => ({ namespace: m.namespace, name: m.name, uid: m.uid, resourceVersion: m.resourceVersion }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}

async function dumpAfterRelist(t: T, expire: 'event' | 'http') {
  const c = await startScriptedCluster({
    list: (res, attempt) => (attempt === 0 ? sendList(res, before, '200') : sendList(res, after, '300')),
    refuseWatch: (attempt) => (expire === 'http' && attempt === 0 ? { code: 410, reason: 'Expired', message: expired.message } : undefined),
    watch: (res, attempt) => {
      if (expire === 'event' && attempt === 0) return void res.end(`${JSON.stringify({ type: 'ERROR', object: expired })}\n`);
      // After the relist: a quiet watch (the sentinel is already in the list).
      if (attempt > 1) res.write(watchLine('ADDED', 'too-late', '301'));
    },
  });
  t.after(() => c.close());
  const dump = path.join(c.dir, 'cache.json');
  const r = await runCli(['watch', 'cm', '--kubeconfig', c.kubeconfig, '-o', 'none', '--exit-when-seen', 'default/sentinel', '--dump-cache', dump]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^lists=2 watches=\d relists=1 410s=1 /m);
  const cached = JSON.parse(readFileSync(dump, 'utf8')) as unknown[];
  assert.equal(cached.length, after.length, `the dump holds ${cached.length} objects; the server has ${after.length}`);
  assert.deepEqual(cached, rows(after));
}

test('a 410 ERROR event, then --exit-when-seen on an object of the relist: the dump is the relist, deletions applied', async (t) => {
  await dumpAfterRelist(t, 'event');
});

test('a watch refused with HTTP 410, then --exit-when-seen on an object of the relist: the dump is the relist, deletions applied', async (t) => {
  await dumpAfterRelist(t, 'http');
});
