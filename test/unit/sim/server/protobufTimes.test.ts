// Times Go clients send in protobuf come back to the second, even the ones near Go's zero time
// (year 1, seconds far below -2^53 ms as a varint): Kubernetes' lease conformance spec writes those.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';
import { bytes, envelope, num, PROTOBUF } from './protobufWriter.ts';

const suite = suiteServer();
/** Seconds from the Unix epoch to 0001-01-01T00:00:00Z. */
const YEAR_ONE = -62135596800;

describe('protobuf times', () => {
  it('a Lease acquired two seconds after year 1 reads back as 0001-01-01T00:00:02', async () => {
    const acquire = [...num(1, YEAR_ONE + 2)];
    const renew = [...num(1, YEAR_ONE + 5), ...num(2, 7000)];
    const spec = [...bytes(1, 'holder'), ...num(2, 30), ...bytes(3, acquire), ...bytes(4, renew), ...num(5, 0)];
    const body = envelope('coordination.k8s.io/v1', 'Lease', [...bytes(1, bytes(1, 'early')), ...bytes(2, spec)]);
    const created = await call(suite.server, 'POST', '/apis/coordination.k8s.io/v1/namespaces/default/leases', { body, contentType: PROTOBUF });
    assert.equal(created.status, 201, created.body);
    const read = (await call(suite.server, 'GET', '/apis/coordination.k8s.io/v1/namespaces/default/leases/early')).json();
    assert.equal(read.spec.acquireTime, '0001-01-01T00:00:02.000000Z');
    assert.equal(read.spec.renewTime, '0001-01-01T00:00:05.000007Z');
  });
});
