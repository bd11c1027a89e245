import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeClock } from '../../../../src/shared/clock.ts';
import { SimCluster } from '../../../../src/sim/simCluster.ts';
import { CM, CRD, configMap } from './helpers.ts';

test('with a stateDir the store snapshots after writes settle, and a new cluster loads it with RVs still rising', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sim-state-'));
  try {
    const clock = new FakeClock();
    const first = new SimCluster({ clock, stateDir: dir, persistDebounceMs: 100 });
    first.create(CM, 'default', configMap('a'));
    first.create(CRD, '', {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
      spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' }, versions: [{ name: 'v1', served: true, storage: true }] },
    });
    first.create({ group: 'example.com', version: 'v1', resource: 'widgets' }, 'default', { metadata: { name: 'w' } });
    clock.step(99);
    assert.throws(() => readFileSync(join(dir, 'state.json')), 'not written before the debounce');
    clock.step(1);
    const savedRv = first.resourceVersion;
    assert.equal(JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')).resourceVersion, savedRv);

    const second = new SimCluster({ clock: new FakeClock(), stateDir: dir });
    assert.equal(second.resourceVersion, savedRv);
    assert.deepEqual(second.get(CM, 'default', 'a').object.data, { k: 'v' });
    assert.equal(second.list(CM, { namespace: 'default' }).items.length, 1);
    assert.equal(second.get({ group: 'example.com', version: 'v1', resource: 'widgets' }, 'default', 'w').object.metadata.name, 'w', 'CRDs are served again');
    const next = second.create(CM, 'default', configMap('b'));
    assert.equal(next.resourceVersion, savedRv + 1);
    assert.equal(second.list({ group: '', version: 'v1', resource: 'namespaces' }, {}).items.length, 4, 'default namespaces are not recreated');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('after loading a snapshot, resumes from before it are 410 (the watch cache starts empty)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sim-state-'));
  try {
    const first = new SimCluster({ clock: new FakeClock(), stateDir: dir });
    first.create(CM, 'default', configMap('a'));
    first.flush();
    const second = new SimCluster({ clock: new FakeClock(), stateDir: dir });
    const events: string[] = [];
    second.watch(CM, { resourceVersion: '1' }, { event: (e) => events.push(e.type), close: () => {} });
    for (let i = 0; i < 5; i++) await Promise.resolve();
    assert.deepEqual(events, ['ERROR']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
