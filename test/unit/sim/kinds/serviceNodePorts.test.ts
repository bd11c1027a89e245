import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newCluster } from '../store/helpers.ts';

const SVC = { group: '', version: 'v1', resource: 'services' };
type Ports = { spec: { ports: { port: number; nodePort?: number }[] } };

test('NodePort services get a free node port per port in 30000-32767; one the request names is kept', () => {
  const { cluster } = newCluster();
  const created = cluster.create(SVC, 'default', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'np' }, spec: { type: 'NodePort', selector: { a: 'b' }, ports: [{ name: 'http', port: 80 }, { name: 'https', port: 443, nodePort: 31000 }] } }).object as unknown as Ports;
  const [http, https] = created.spec.ports;
  assert.ok(http?.nodePort && http.nodePort >= 30000 && http.nodePort <= 32767, `node port ${http?.nodePort}`);
  assert.equal(https?.nodePort, 31000);
  const plain = cluster.create(SVC, 'default', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'ip' }, spec: { selector: { a: 'b' }, ports: [{ port: 80 }] } }).object as unknown as Ports;
  assert.equal(plain.spec.ports[0]?.nodePort, undefined, 'a ClusterIP service has none');
});

test('an update that leaves node ports out keeps the allocated ones', () => {
  const { cluster } = newCluster();
  const body = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'np' }, spec: { type: 'NodePort', selector: { a: 'b' }, ports: [{ port: 80 }] } };
  const first = cluster.create(SVC, 'default', structuredClone(body)).object as unknown as Ports;
  const updated = cluster.update(SVC, 'default', 'np', structuredClone(body)).object as unknown as Ports;
  assert.equal(updated.spec.ports[0]?.nodePort, first.spec.ports[0]?.nodePort);
});
