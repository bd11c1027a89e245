import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateJsonPath, parseJsonPath, tableColumnsFor } from '../../../../src/sim/server/printerColumns.ts';
import { renderTable } from '../../../../src/sim/server/table.ts';
import type { ResourceInfo } from '../../../../src/sim/vocabulary/resourceInfo.ts';

const obj = {
  spec: { size: 3, ports: [{ port: 80 }, { port: 443 }] },
  status: { conditions: [{ type: 'Ready', status: 'True' }, { type: 'Synced', status: 'False' }] },
};

test('the JSONPath subset CRDs use', () => {
  assert.deepEqual(evaluateJsonPath(obj, parseJsonPath('.spec.size')!), [3]);
  assert.deepEqual(evaluateJsonPath(obj, parseJsonPath('{.spec.ports[1].port}')!), [443]);
  assert.deepEqual(evaluateJsonPath(obj, parseJsonPath('.status.conditions[?(@.type=="Ready")].status')!), ['True']);
  assert.deepEqual(evaluateJsonPath(obj, parseJsonPath('.spec.missing')!), []);
  assert.equal(parseJsonPath('.spec..size'), undefined);
});

const widgets: ResourceInfo = {
  group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Widget', namespaced: true, shortNames: [], singularName: 'widget',
  verbs: [], categories: [], subresources: [], servedVersions: ['v1'], storageVersion: 'v1', nameRule: 'subdomain', source: 'crd',
};

test('a custom resource gets its CRD printer columns, else NAME and AGE', () => {
  const crd = {
    metadata: { name: 'widgets.example.com' },
    spec: {
      versions: [{
        name: 'v1',
        additionalPrinterColumns: [
          { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
          { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
          { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          { name: 'Missing', type: 'string', jsonPath: '.spec.nope', priority: 1 },
        ],
      }],
    },
  };
  const columns = tableColumnsFor(widgets, (name) => (name === 'widgets.example.com' ? crd : undefined));
  const w = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1', creationTimestamp: '2026-01-01T00:00:00Z' }, ...obj };
  const table = JSON.parse(renderTable([w], {}, { columns, includeObject: 'None', now: Date.parse('2026-01-01T00:03:00Z'), withColumnDefinitions: true }));
  assert.deepEqual(table.columnDefinitions.map((c: { name: string }) => c.name), ['Name', 'Size', 'Ready', 'Age', 'Missing']);
  assert.deepEqual(table.rows[0].cells, ['w1', 3, 'True', '3m', null], 'a path that finds nothing is a null cell');
  assert.deepEqual(tableColumnsFor(widgets, () => undefined).map((c) => c.name), ['Name', 'Age']);
});
