import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

// A MicroTime (a Lease's renewTime, an Event's eventTime) is parsed with Go's RFC3339Micro layout:
// exactly six fractional digits. A client that writes fewer meets kube-apiserver's 400, so it must
// meet it here too.

const suite = suiteServer();
const LEASES = '/apis/coordination.k8s.io/v1/namespaces/default/leases';
const lease = (name: string, renewTime: string) => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name }, spec: { holderIdentity: 'h', renewTime } });

describe('MicroTime decoding', () => {
  it('six fractional digits are a MicroTime', async () => {
    assert.equal((await call(suite.server, 'POST', LEASES, { body: lease('six', '2024-01-01T00:00:01.500000Z') })).status, 201);
  });

  it('fewer digits are refused with time.Parse\'s words', async () => {
    const r = await call(suite.server, 'POST', LEASES, { body: lease('one', '2024-01-01T00:00:01.5Z') });
    assert.equal(r.status, 400, r.body);
    assert.equal(r.json().message, 'Lease in version "v1" cannot be handled as a Lease: parsing time "2024-01-01T00:00:01.5Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse ".5Z" as ".000000"');
  });

  it('no fraction at all is refused too', async () => {
    const r = await call(suite.server, 'POST', LEASES, { body: lease('none', '2024-01-01T00:00:01Z') });
    assert.equal(r.status, 400, r.body);
    assert.match(r.json().message, /cannot parse "Z" as "\.000000"$/);
  });
});
