// An empty string in a Go pointer field, sent as protobuf (client-go's typed clients, kubectl ≥ 1.32):
// Go's encoder writes a pointer only when it is set, so "" there is a value, kept as kube-apiserver
// keeps it. leader election releases its Lease by writing holderIdentity "", and a PVC's
// storageClassName "" asks for no storage class at all.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { PROTOBUF, bytes, envelope, num } from './protobufWriter.ts';
import { suiteServer } from './suiteServer.ts';

describe('protobuf pointer strings set to ""', () => {
  const sim = suiteServer();

  it('a released Lease keeps holderIdentity "" and a PVC keeps storageClassName ""', async () => {
    const lease = envelope('coordination.k8s.io/v1', 'Lease', [
      ...bytes(1, [...bytes(1, 'released'), ...bytes(3, 'default')]),
      ...bytes(2, [...bytes(1, ''), ...num(2, 1)]),
    ]);
    const created = await call(sim.server, 'POST', '/apis/coordination.k8s.io/v1/namespaces/default/leases', { body: lease, contentType: PROTOBUF });
    assert.equal(created.status, 201, created.body);
    assert.deepEqual(created.json().spec, { holderIdentity: '', leaseDurationSeconds: 1 });
    const read = await call(sim.server, 'GET', '/apis/coordination.k8s.io/v1/namespaces/default/leases/released');
    assert.equal(read.json().spec.holderIdentity, '', 'a typed client reading it back gets a pointer to "", not nil');

    const requests = bytes(2, [...bytes(1, 'storage'), ...bytes(2, bytes(1, '1Gi'))]);
    const pvc = envelope('v1', 'PersistentVolumeClaim', [
      ...bytes(1, [...bytes(1, 'noclass'), ...bytes(3, 'default')]),
      ...bytes(2, [...bytes(1, 'ReadWriteOnce'), ...bytes(2, requests), ...bytes(5, '')]),
    ]);
    const claim = await call(sim.server, 'POST', '/api/v1/namespaces/default/persistentvolumeclaims', { body: pvc, contentType: PROTOBUF });
    assert.equal(claim.status, 201, claim.body);
    assert.equal(claim.json().spec.storageClassName, '');
  });

  it('an empty non-pointer string is still left out, as Go prints an omitempty field', async () => {
    const cm = envelope('v1', 'ConfigMap', [...bytes(1, [...bytes(1, 'plain'), ...bytes(2, ''), ...bytes(3, 'default')])]);
    const created = await call(sim.server, 'POST', '/api/v1/namespaces/default/configmaps', { body: cm, contentType: PROTOBUF });
    assert.equal(created.status, 201, created.body);
    assert.equal('generateName' in created.json().metadata, false);
  });
});
