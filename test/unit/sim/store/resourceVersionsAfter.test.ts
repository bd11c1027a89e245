// A cluster may start its resourceVersions after a given one (a check's second reference run does):
// every object (the bootstrap's root CA ConfigMaps too) then carries a version past it, and a watch from there works.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSimCluster } from '../../../../src/sim/simCluster.ts';

const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' };

test('a cluster started after resourceVersion 100000 gives every object a version past it', async () => {
  const shifted = createSimCluster({ resourceVersionsAfter: 100_000 });
  const plain = createSimCluster();
  try {
    for (const cluster of [shifted, plain]) cluster.create(CONFIGMAPS, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web' }, data: { mode: 'on' } });
    const versions = (cluster: typeof plain) => cluster.list(CONFIGMAPS, { namespace: '' }).items.map((o) => o.resourceVersion);
    assert.ok(versions(shifted).every((rv) => rv > 100_000), `${versions(shifted)}`);
    assert.deepEqual(versions(shifted).map((rv) => rv - 100_000), versions(plain));
  } finally {
    await shifted.close();
    await plain.close();
  }
});
