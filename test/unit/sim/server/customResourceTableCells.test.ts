import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

// The cells of a CRD's additionalPrinterColumns in the Table `kubectl get` asks for, as the
// apiextensions server's table convertor makes them (kube-apiserver v1.28.4 gave these): the path's
// first value only, null when it finds nothing or the value is not of the column's type, objects
// and lists printed as Go's JSON in a string column, dates as ages (`<invalid>`, `<unknown>`).

const suite = suiteServer();
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const GADGETS = '/apis/cols.example.com/v1/namespaces/default/gadgets';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const column = (name: string, type: string, jsonPath: string) => ({ name, type, jsonPath });
const crd = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'gadgets.cols.example.com' },
  spec: {
    group: 'cols.example.com', names: { kind: 'Gadget', plural: 'gadgets', singular: 'gadget', listKind: 'GadgetList' }, scope: 'Namespaced',
    versions: [{
      name: 'v1', served: true, storage: true,
      additionalPrinterColumns: [
        column('Ready', 'string', '.status.conditions[?(@.type=="Ready")].status'), column('Int', 'integer', '.spec.i'),
        column('Num', 'number', '.spec.n'), column('Bool', 'boolean', '.spec.b'), column('Obj', 'string', '.spec.o'),
        column('Arr', 'string', '.spec.a'), column('When', 'date', '.spec.when'), column('NumStr', 'string', '.spec.n'),
      ],
      schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
    }],
  },
};
const gadget = (name: string, rest: object) => ({ apiVersion: 'cols.example.com/v1', kind: 'Gadget', metadata: { name }, ...rest });

describe('custom resource Table cells', () => {
  before(async () => {
    assert.equal((await call(suite.server, 'POST', CRDS, { body: crd })).status, 201);
  });

  it('are what kube-apiserver puts in them, null where it finds nothing of the column\'s type', async () => {
    const made = [
      gadget('g1', {
        spec: { i: '7', n: 2.5, b: true, o: { z: 1, a: '<' }, a: [1, 'x'], when: 'yesterday' },
        status: { conditions: [{ type: 'Ready', status: 'A' }, { type: 'Ready', status: 'B' }] },
      }),
      gadget('g2', { spec: { i: 7.9, n: 3, b: 'yes', o: 's', a: [], when: '' } }),
      gadget('g3', { spec: { i: null, n: 1e21, o: {} } }),
    ];
    for (const g of made) assert.equal((await call(suite.server, 'POST', GADGETS, { body: g })).status, 201);
    const table = await call(suite.server, 'GET', GADGETS, { accept: TABLE });
    assert.equal(table.status, 200, table.body);
    const { columnDefinitions, rows } = table.json();
    assert.deepEqual(columnDefinitions.map((c: { type: string }) => c.type), ['string', 'string', 'integer', 'number', 'boolean', 'string', 'string', 'date', 'string']);
    assert.deepEqual(rows.map((r: { cells: unknown[] }) => r.cells), [
      ['g1', 'A', null, 2.5, true, '{"a":"\\u003c","z":1}', '[1,"x"]', '<invalid>', '2.5'],
      ['g2', null, 7, 3, null, 's', '[]', '<unknown>', '3'],
      ['g3', null, null, 1e21, null, '{}', null, null, '1e+21'],
    ]);
  });
});
