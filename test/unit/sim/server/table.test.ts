import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderTable } from '../../../../src/sim/server/table.ts';
import { humanDuration } from '../../../../src/sim/vocabulary/tableCells.ts';
import { columnsFor } from '../../../../src/sim/server/tableColumns.ts';

test('ages print like kubectl', () => {
  assert.equal(humanDuration(5_000), '5s');
  assert.equal(humanDuration(119_000), '119s');
  assert.equal(humanDuration(150_000), '2m30s');
  assert.equal(humanDuration(45 * 60_000), '45m');
  assert.equal(humanDuration((5 * 60 + 7) * 60_000), '5h7m');
  assert.equal(humanDuration(30 * 3600_000), '30h');
  assert.equal(humanDuration(3 * 86400_000 + 2 * 3600_000), '3d2h');
  assert.equal(humanDuration(40 * 86400_000), '40d');
});

const now = Date.parse('2026-01-01T00:10:00Z');
const deploy = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'ns', creationTimestamp: '2026-01-01T00:00:00Z', labels: { app: 'web' } },
  spec: { replicas: 3 },
  status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 },
};

test('a Deployment row has kubectl columns and PartialObjectMetadata', () => {
  const table = JSON.parse(renderTable([deploy], { resourceVersion: '7' }, { columns: columnsFor('deployments'), includeObject: 'Metadata', now, withColumnDefinitions: true }));
  assert.equal(table.kind, 'Table');
  assert.equal(table.apiVersion, 'meta.k8s.io/v1');
  assert.deepEqual(table.metadata, { resourceVersion: '7' });
  assert.deepEqual(table.columnDefinitions.map((c: { name: string }) => c.name), ['Name', 'Ready', 'Up-to-date', 'Available', 'Age', 'Containers', 'Images', 'Selector']);
  assert.deepEqual(table.columnDefinitions.map((c: { priority: number }) => c.priority), [0, 0, 0, 0, 0, 1, 1, 1]);
  assert.deepEqual(table.rows[0].cells, ['web', '2/3', 3, 2, '10m', '<none>', '<none>', '<none>']);
  assert.deepEqual(table.rows[0].object, { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: deploy.metadata });
});

test('includeObject and column definitions after the first watch event', () => {
  const full = JSON.parse(renderTable([deploy], {}, { columns: columnsFor('deployments'), includeObject: 'Object', now, withColumnDefinitions: false }));
  assert.deepEqual(full.columnDefinitions, []);
  assert.deepEqual(full.rows[0].object, deploy);
  const none = JSON.parse(renderTable([deploy], {}, { columns: columnsFor('widgets'), includeObject: 'None', now, withColumnDefinitions: true }));
  assert.equal(none.rows[0].object, undefined);
  assert.deepEqual(none.rows[0].cells, ['web', '10m']);
});
