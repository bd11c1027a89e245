// `kubectl get endpoints` and `kubectl get serviceaccounts` columns, as v1.28's printers make them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { renderTable } from '../../../../src/sim/server/table.ts';
import { columnsFor } from '../../../../src/sim/server/tableColumns.ts';

const now = Date.parse('2026-01-01T01:00:00Z');
const created = { creationTimestamp: '2026-01-01T00:00:00Z' };

function table(resource: string, ...objects: Record<string, unknown>[]): { columns: string[]; rows: unknown[][] } {
  const t = JSON.parse(renderTable(objects as unknown as KubeObject[], {}, { columns: columnsFor(resource), includeObject: 'None', now, withColumnDefinitions: true }));
  return { columns: (t.columnDefinitions as { name: string }[]).map((c) => c.name), rows: t.rows.map((r: { cells: unknown[] }) => r.cells) };
}

test('Endpoints: ip:port per address and port, three at most then "+ N more...", bare IPs without ports, <none> when empty', () => {
  const t = table('endpoints',
    { metadata: { name: 'kubernetes', ...created }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: 6443 }] }] },
    { metadata: { name: 'web', ...created }, subsets: [{ addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }], ports: [{ port: 80 }, { port: 443 }] }] },
    { metadata: { name: 'headless', ...created }, subsets: [{ addresses: [{ ip: '10.0.0.9' }] }] },
    { metadata: { name: 'v6', ...created }, subsets: [{ addresses: [{ ip: 'fd00::1' }], ports: [{ port: 80 }] }] },
    { metadata: { name: 'empty', ...created } },
  );
  assert.deepEqual(t.columns, ['Name', 'Endpoints', 'Age']);
  assert.deepEqual(t.rows, [
    ['kubernetes', '127.0.0.1:6443', '60m'],
    ['web', '10.0.0.1:80,10.0.0.2:80,10.0.0.1:443 + 1 more...', '60m'],
    ['headless', '10.0.0.9', '60m'],
    ['v6', '[fd00::1]:80', '60m'],
    ['empty', '<none>', '60m'],
  ]);
});

test('ServiceAccount: how many secrets it lists', () => {
  const t = table('serviceaccounts', { metadata: { name: 'default', ...created } }, { metadata: { name: 'builder', ...created }, secrets: [{ name: 'a' }, { name: 'b' }] });
  assert.deepEqual(t.columns, ['Name', 'Secrets', 'Age']);
  assert.deepEqual(t.rows, [['default', 0, '60m'], ['builder', 2, '60m']]);
});
