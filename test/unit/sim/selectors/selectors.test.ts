import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseLabelSelector } from '../../../../src/shared/labelSelector.ts';
import { parseFieldSelector } from '../../../../src/sim/selectors/fieldSelector.ts';
import { ApiError } from '../../../../src/shared/apiError.ts';

const m = (sel: string, labels?: Record<string, string>): boolean => parseLabelSelector(sel).matches(labels);

test('label selector equality forms: =, == and != (a missing key satisfies !=)', () => {
  assert.equal(m('app=web', { app: 'web' }), true);
  assert.equal(m('app==web', { app: 'web' }), true);
  assert.equal(m('app=web', { app: 'db' }), false);
  assert.equal(m('app!=web', { app: 'db' }), true);
  assert.equal(m('app!=web', {}), true);
  assert.equal(m('app!=web', { app: 'web' }), false);
});

test('label selector set forms: in, notin (a missing key satisfies notin)', () => {
  assert.equal(m('tier in (front, back)', { tier: 'back' }), true);
  assert.equal(m('tier in (front,back)', { tier: 'db' }), false);
  assert.equal(m('tier in (front)', {}), false);
  assert.equal(m('tier notin (front)', {}), true);
  assert.equal(m('tier notin (front)', { tier: 'front' }), false);
});

test('label selector existence: key and !key', () => {
  assert.equal(m('app', { app: '' }), true);
  assert.equal(m('app', {}), false);
  assert.equal(m('!app', {}), true);
  assert.equal(m('!app', { app: 'x' }), false);
});

test('label selector requirements are ANDed, commas inside sets belong to the set', () => {
  assert.equal(m('app=web,tier in (a,b),!legacy', { app: 'web', tier: 'b' }), true);
  assert.equal(m('app=web,tier in (a,b),!legacy', { app: 'web', tier: 'b', legacy: 'y' }), false);
  assert.equal(m('', { anything: 'x' }), true);
  assert.equal(parseLabelSelector('').empty, true);
});

test('a malformed label selector is a 400 in the API server\'s words', () => {
  const refusals: Record<string, string> = {
    'app=we b': "found 'b', expected: ',' or 'end of string'",
    'tier in (a': "unable to parse requirement: found '', expected: ',' or ')'",
    '!': "unable to parse requirement: found '', expected: identifier",
    'a,,b': "found ',', expected: identifier after ','",
    'a b': "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt",
    'a notin b': "unable to parse requirement: found 'b' expected: '('",
    '=a': "found '=', expected: !, identifier, or 'end of string'",
    'x<abc': 'unable to parse requirement: values[0]: Invalid value: "abc": for \'Gt\', \'Lt\' operators, the value must be an integer',
    '-bad=x': 'unable to parse requirement: <nil>: Invalid value: "-bad": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
  };
  for (const [bad, message] of Object.entries(refusals)) {
    assert.throws(() => parseLabelSelector(bad), (e: unknown) => e instanceof ApiError && e.code === 400 && e.message === message, bad);
  }
});

test('keywords are plain words where a value or key stands, and empty set items are the empty value', () => {
  assert.deepEqual(parseLabelSelector('a=in,in=b').requirements, [{ op: 'eq', key: 'a', value: 'in' }, { op: 'eq', key: 'in', value: 'b' }]);
  assert.deepEqual(parseLabelSelector('a in (,b)').requirements, [{ op: 'in', key: 'a', values: ['', 'b'] }]);
  assert.deepEqual(parseLabelSelector('c in (y,x), !d').requirements, [{ op: 'in', key: 'c', values: ['x', 'y'] }, { op: 'notexists', key: 'd' }]);
});

const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns1' }, spec: { nodeName: 'n1' }, status: { phase: 'Running' } };

test('field selectors on metadata.name and metadata.namespace with =, == and !=', () => {
  assert.equal(parseFieldSelector('metadata.name=p', 'Pod').matches(pod), true);
  assert.equal(parseFieldSelector('metadata.name==q', 'Pod').matches(pod), false);
  assert.equal(parseFieldSelector('metadata.namespace!=ns1', 'Pod').matches(pod), false);
  assert.equal(parseFieldSelector('metadata.namespace=ns1,metadata.name!=q', 'Pod').matches(pod), true);
});

test('kind-specific fields are supported where the real server indexes them', () => {
  assert.equal(parseFieldSelector('status.phase=Running,spec.nodeName=n1', 'Pod').matches(pod), true);
});

test('an unsupported field is a 400 worded as the API server words it for the kind', () => {
  assert.throws(() => parseFieldSelector('spec.foo=bar', 'ConfigMap'), (e: unknown) =>
    e instanceof ApiError && e.code === 400 && e.message === '"spec.foo" is not a known field selector: only "metadata.name", "metadata.namespace"');
  assert.throws(() => parseFieldSelector('spec.foo=bar', 'Pod'), (e: unknown) =>
    e instanceof ApiError && e.code === 400 && e.message === 'field label not supported: spec.foo');
  assert.throws(() => parseFieldSelector('status.phase=Running', 'ConfigMap'), (e: unknown) => e instanceof ApiError && e.code === 400);
});
