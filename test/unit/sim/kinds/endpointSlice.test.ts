// EndpointSlices over HTTP as kube-apiserver v1.28 checks them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../server/httpClient.ts';
import { suiteServer } from '../server/suiteServer.ts';
import { causes } from './causes.ts';

const suite = suiteServer();
const SLICES = '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices';
const slice = (name: string, more: Record<string, unknown>) => ({ apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name }, addressType: 'IPv4', ...more });

describe('EndpointSlice validation', () => {
  it('the address type is required and one of three', async () => {
    const none = slice('none', {});
    delete (none as Record<string, unknown>).addressType;
    assert.deepEqual(causes(await call(suite.server, 'POST', SLICES, { body: none })), [['FieldValueRequired', 'addressType', 'Required value']]);
    assert.deepEqual(causes(await call(suite.server, 'POST', SLICES, { body: slice('ipv5', { addressType: 'IPv5' }) })), [
      ['FieldValueNotSupported', 'addressType', 'Unsupported value: "IPv5": supported values: "FQDN", "IPv4", "IPv6"'],
    ]);
  });

  it('endpoints need addresses of the slice\'s type', async () => {
    const r = await call(suite.server, 'POST', SLICES, { body: slice('addresses', { endpoints: [{ addresses: [] }, { addresses: ['fd00::1', 'web'] }] }) });
    assert.deepEqual(causes(r), [
      ['FieldValueRequired', 'endpoints[0].addresses', 'Required value: must contain at least 1 address'],
      ['FieldValueInvalid', 'endpoints[1].addresses[0]', 'Invalid value: "fd00::1": must be a valid IPv4 address'],
      ['FieldValueInvalid', 'endpoints[1].addresses[1]', 'Invalid value: "web": must be a valid IPv4 address'],
      ['FieldValueInvalid', 'endpoints[1].addresses[1]', 'Invalid value: "web": must be a valid IP address'],
    ]);
  });

  it('ports have unique DNS-label names and a known protocol; the address type never changes', async () => {
    const r = await call(suite.server, 'POST', SLICES, { body: slice('ports', { ports: [{ name: 'http', port: 80 }, { name: 'http', port: 81, protocol: 'ICMP' }] }) });
    assert.deepEqual(causes(r), [
      ['FieldValueDuplicate', 'ports[1].name', 'Duplicate value: "http"'],
      ['FieldValueNotSupported', 'ports[1].protocol', 'Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"'],
    ]);
    const ok = await call(suite.server, 'POST', SLICES, { body: slice('ok', { endpoints: [{ addresses: ['10.0.0.5'] }], ports: [{ name: 'http', port: 80 }] }) });
    assert.equal(ok.status, 201, ok.body);
    const changed = await call(suite.server, 'PUT', `${SLICES}/ok`, { body: { ...ok.json(), addressType: 'FQDN', endpoints: [{ addresses: ['web.example.com'] }] } });
    assert.deepEqual(causes(changed), [['FieldValueInvalid', 'addressType', 'Invalid value: "FQDN": field is immutable']]);
  });
});
