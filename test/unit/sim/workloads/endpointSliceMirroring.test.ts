// EndpointSlice mirroring over HTTP with the workload simulation on: an Endpoints written by hand
// for a Service without a selector shows up as an EndpointSlice (owned by the Endpoints), follows
// its updates, and goes with it; Endpoints marked skip-mirror are left alone.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { call } from '../server/httpClient.ts';
import { httpWorkloadLab } from './httpWorkloadLab.ts';

const lab = httpWorkloadLab();
const NS = '/api/v1/namespaces/default';
const SLICES = '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices';

type Slice = KubeObject & { addressType: string; ports: { name: string; port: number; protocol: string }[]; endpoints: { addresses: string[]; conditions: { ready: boolean } }[] };
type List = { items: Slice[] };
const slicesOf = (service: string) => `${SLICES}?labelSelector=kubernetes.io%2Fservice-name%3D${service}`;
const service = (name: string) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ports: [{ name: 'example', port: 80, protocol: 'TCP' }] } });
const endpoints = (name: string, ip: string, labels: Record<string, string> = {}) => ({
  apiVersion: 'v1', kind: 'Endpoints', metadata: { name, labels }, subsets: [{ ports: [{ port: 80 }], addresses: [{ ip }], notReadyAddresses: [{ ip: 'fd00::1' }] }],
});

describe('EndpointSlice mirroring', () => {
  it('mirrors a custom Endpoints through create, update and delete', async () => {
    assert.equal((await call(lab.server, 'POST', `${NS}/services`, { body: service('custom') })).status, 201);
    const created = await call(lab.server, 'POST', `${NS}/endpoints`, { body: endpoints('custom', '10.1.2.3', { team: 'a' }) });
    assert.equal(created.status, 201, created.body);
    const first = await lab.until<List>(slicesOf('custom'), (l) => l.items.length === 2);
    const v4 = first.items.find((s) => s.addressType === 'IPv4')!;
    assert.deepEqual(v4.ports, [{ name: '', port: 80, protocol: 'TCP' }]);
    assert.deepEqual(v4.endpoints.map((e) => [e.addresses, e.conditions.ready]), [[['10.1.2.3'], true]]);
    assert.equal(v4.metadata.labels?.['endpointslice.kubernetes.io/managed-by'], 'endpointslicemirroring-controller.k8s.io');
    assert.equal(v4.metadata.labels?.['team'], 'a', 'the Endpoints labels are copied');
    assert.deepEqual(v4.metadata.ownerReferences?.map((r) => [r.kind, r.name, r.controller]), [['Endpoints', 'custom', true]]);
    const v6 = first.items.find((s) => s.addressType === 'IPv6')!;
    assert.deepEqual(v6.endpoints.map((e) => [e.addresses, e.conditions.ready]), [[['fd00::1'], false]], 'not-ready addresses are mirrored not ready');

    const stored = created.json();
    const updated = await call(lab.server, 'PUT', `${NS}/endpoints/custom`, { body: { ...stored, subsets: [{ ports: [{ port: 80 }], addresses: [{ ip: '10.2.3.4' }] }] } });
    assert.equal(updated.status, 200, updated.body);
    const after = await lab.until<List>(slicesOf('custom'), (l) => l.items.length === 1 && l.items[0]!.endpoints[0]?.addresses[0] === '10.2.3.4');
    assert.equal(after.items[0]!.metadata.name, v4.metadata.name, 'the slice is updated in place');

    assert.equal((await call(lab.server, 'DELETE', `${NS}/endpoints/custom`)).status, 200);
    await lab.until<List>(slicesOf('custom'), (l) => l.items.length === 0);
  });

  it('leaves Endpoints marked skip-mirror, and those of a Service with a selector, unmirrored', async () => {
    await call(lab.server, 'POST', `${NS}/services`, { body: service('skipped') });
    await call(lab.server, 'POST', `${NS}/endpoints`, { body: endpoints('skipped', '10.9.9.9', { 'endpointslice.kubernetes.io/skip-mirror': 'true' }) });
    await call(lab.server, 'POST', `${NS}/services`, { body: { ...service('selecting'), spec: { ...service('selecting').spec, selector: { app: 'none' } } } });
    await call(lab.server, 'POST', `${NS}/endpoints`, { body: endpoints('selecting', '10.8.8.8') });
    // Give the controllers five simulated seconds, then look: nothing mirrored.
    const from = lab.clock.now();
    await lab.until<List>(SLICES, () => lab.clock.now() >= from + 5000);
    assert.deepEqual((await call(lab.server, 'GET', slicesOf('skipped'))).json().items, []);
    const selecting = (await call(lab.server, 'GET', slicesOf('selecting'))).json() as List;
    assert.ok(selecting.items.every((s) => s.metadata.labels?.['endpointslice.kubernetes.io/managed-by'] !== 'endpointslicemirroring-controller.k8s.io'));
  });
});
