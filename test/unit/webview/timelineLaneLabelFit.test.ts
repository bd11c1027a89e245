import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitLaneLabel, fitRequestKey } from '../../../webview/timeline/laneLabelFit.ts';

// A lane label cut to the timeline's gutter (228 px): a long name keeps its namespace beside it.

const CHAR = 7;
const measure = (s: string) => s.length * CHAR;
const GUTTER = 228;
const lane = (namespace: string, name: string, kind = 'Pod') => ({ kind, resource: 'pods', namespace, name, cluster: 'Simulated cluster', informer: 'i', isInformerLane: false });
const text = (l: { prefix: string; name: string; suffix: string }) => `${l.prefix}${l.name}${l.suffix}`;

test('a long name keeps its namespace whole; the kind gives way, the name loses its middle', () => {
  const fitted = fitLaneLabel(lane('payments-prod', 'checkout-api-7d9f8b6c5-x2x9z'), false, GUTTER, measure);
  assert.ok(measure(text(fitted)) <= GUTTER, text(fitted));
  assert.match(fitted.prefix, /payments-prod\/$/, text(fitted));
  // Both ends of the name tell Pods apart: its start and its generated suffix.
  assert.match(fitted.name, /^checkout.*….*x2x9z$/, text(fitted));
});

test('two lanes of the same long name in different namespaces read differently', () => {
  const name = 'a-very-long-deployment-name-for-the-frontend';
  const prod = text(fitLaneLabel(lane('prod', name, 'Deployment'), false, GUTTER, measure));
  const staging = text(fitLaneLabel(lane('staging', name, 'Deployment'), false, GUTTER, measure));
  assert.notEqual(prod, staging);
  assert.match(prod, /prod\//);
  assert.match(staging, /staging\//);
});

test('a label that fits is drawn whole; the kind stays while there is room', () => {
  assert.deepEqual(fitLaneLabel(lane('default', 'web'), false, GUTTER, measure), { prefix: 'Pod default/', name: 'web', suffix: '' });
  const fitted = fitLaneLabel(lane('default', 'web-frontend-7d9f8b6c5-x2x9z', 'ReplicaSet'), false, GUTTER, measure);
  assert.ok(measure(text(fitted)) <= GUTTER, text(fitted));
  assert.match(fitted.prefix, /^Repl.*default\/$/, text(fitted));
});

test('a namespace longer than half the gutter is cut in its middle, never dropped', () => {
  const fitted = fitLaneLabel(lane('team-observability-platform-staging', 'prometheus-operator-0'), false, GUTTER, measure);
  assert.ok(measure(text(fitted)) <= GUTTER, text(fitted));
  assert.match(fitted.prefix, /^team.*….*ging\/$/, text(fitted));
  assert.match(fitted.name, /^promethe.*-0$/, text(fitted));
});

test("a reconcile lane's key keeps its namespace and the end of its name", () => {
  assert.equal(fitRequestKey('default/web', GUTTER, measure), '⚙ default/web');
  const fitted = fitRequestKey('payments-prod/checkout-api-7d9f8b6c5-x2x9z-with-a-longer-tail', GUTTER, measure);
  assert.ok(measure(fitted) <= GUTTER, fitted);
  assert.match(fitted, /^⚙ pay.*prod\/checkout.*….*tail$/);
  assert.equal(fitRequestKey('cluster-scoped-name', GUTTER, measure), '⚙ cluster-scoped-name');
});
