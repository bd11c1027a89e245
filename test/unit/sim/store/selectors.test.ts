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

test('a malformed label selector is a 400', () => {
  for (const bad of ['app=we b', 'tier in (a', '!', 'a,,b', '-bad=x']) {
    assert.throws(() => parseLabelSelector(bad), (e: unknown) => e instanceof ApiError && e.code === 400, bad);
  }
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

test('an unsupported field is a 400 "field label not supported"', () => {
  assert.throws(() => parseFieldSelector('spec.foo=bar', 'ConfigMap'), (e: unknown) =>
    e instanceof ApiError && e.code === 400 && e.message === 'field label not supported: spec.foo');
  assert.throws(() => parseFieldSelector('status.phase=Running', 'ConfigMap'), (e: unknown) => e instanceof ApiError && e.code === 400);
});
