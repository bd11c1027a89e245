// NetworkPolicies over HTTP as kube-apiserver v1.28 checks them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../server/httpClient.ts';
import { suiteServer } from '../server/suiteServer.ts';
import { causes } from './causes.ts';

const suite = suiteServer();
const POLICIES = '/apis/networking.k8s.io/v1/namespaces/default/networkpolicies';
const policy = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name }, spec: { podSelector: {}, ...spec } });

describe('NetworkPolicy validation', () => {
  it('ports: a known protocol, a number in range, an endPort not below the port and only with a numeric one', async () => {
    const r = await call(suite.server, 'POST', POLICIES, {
      body: policy('ports', { ingress: [{ ports: [{ protocol: 'ICMP', port: 70000 }, { port: 8080, endPort: 80 }, { port: 'http', endPort: 90 }, { port: 'Bad_Name' }] }] }),
    });
    assert.deepEqual(causes(r), [
      ['FieldValueNotSupported', 'spec.ingress[0].ports[0].protocol', 'Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP"'],
      ['FieldValueInvalid', 'spec.ingress[0].ports[0].port', 'Invalid value: 70000: must be between 1 and 65535, inclusive'],
      ['FieldValueInvalid', 'spec.ingress[0].ports[1].endPort', 'Invalid value: 8080: must be greater than or equal to `port`'],
      ['FieldValueInvalid', 'spec.ingress[0].ports[2].endPort', 'Invalid value: 90: may not be specified when `port` is non-numeric'],
      ['FieldValueInvalid', 'spec.ingress[0].ports[3].port', 'Invalid value: "Bad_Name": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)'],
    ]);
  });

  it('peers: each says whom it selects, an ipBlock stands alone with a valid CIDR and strict subsets as exceptions', async () => {
    const r = await call(suite.server, 'POST', POLICIES, {
      body: policy('peers', {
        egress: [{ to: [{}, { ipBlock: { cidr: '10.0.0.0/8' }, podSelector: {} }, { ipBlock: { cidr: '10.0.0.0/33' } }, { ipBlock: { cidr: '10.0.0.0/16', except: ['192.168.0.0/24'] } }] }],
      }),
    });
    assert.deepEqual(causes(r), [
      ['FieldValueRequired', 'spec.egress[0].to[0]', 'Required value: must specify a peer'],
      ['FieldValueForbidden', 'spec.egress[0].to[1]', 'Forbidden: may not specify both ipBlock and another peer'],
      ['FieldValueInvalid', 'spec.egress[0].to[2].ipBlock.cidr', 'Invalid value: "10.0.0.0/33": not a valid CIDR'],
      ['FieldValueInvalid', 'spec.egress[0].to[3].ipBlock.except[0]', 'Invalid value: "192.168.0.0/24": must be a strict subset of `cidr`'],
    ]);
  });

  it('policy types are Ingress or Egress; a valid policy is stored with its defaults', async () => {
    assert.deepEqual(causes(await call(suite.server, 'POST', POLICIES, { body: policy('types', { policyTypes: ['Ingress', 'Both'] }) })), [
      ['FieldValueNotSupported', 'spec.policyTypes[1]', 'Unsupported value: "Both": supported values: "Ingress", "Egress"'],
    ]);
    const ok = await call(suite.server, 'POST', POLICIES, { body: policy('ok', { egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] } }], ports: [{ port: 53 }] }] }) });
    assert.equal(ok.status, 201, ok.body);
    assert.deepEqual(ok.json().spec.policyTypes, ['Ingress', 'Egress']);
  });
});
