import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { encodeAsGo } from '../../../../src/sim/goTypes/goEncoding.ts';
import { newCluster } from '../store/helpers.ts';

const EVENTS = { group: '', version: 'v1', resource: 'events' };
const SLICES = { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices' };
const CRONJOBS = { group: 'batch', version: 'v1', resource: 'cronjobs' };
const SVC = { group: '', version: 'v1', resource: 'services' };

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

test('an Event is answered as Go prints it: unset structs {}, times null, strings without omitempty ""', () => {
  const { cluster } = newCluster();
  const e = cluster.create(EVENTS, 'default', { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e1' }, involvedObject: { kind: 'Pod', name: 'p' }, reason: 'Test', message: 'hi' }).object as Json;
  assert.deepEqual(e['source'], {});
  assert.equal(e['eventTime'], null);
  assert.equal(e['firstTimestamp'], null);
  assert.equal(e['reportingComponent'], '');
  assert.equal(e['reportingInstance'], '');
  assert.equal('series' in e, false, 'a pointer with omitempty stays out');
});

test('nested structs are filled: an EndpointSlice endpoint\'s conditions, a CronJob\'s job template metadata', () => {
  const { cluster } = newCluster();
  const slice = cluster.create(SLICES, 'default', { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 's' }, addressType: 'IPv4', endpoints: [{ addresses: ['10.0.0.1'] }], ports: [{ port: 80 }] }).object as Json;
  assert.deepEqual(slice['endpoints'][0].conditions, {});
  const cron = cluster.create(CRONJOBS, 'default', {
    apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'c' },
    spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'c', image: 'busybox' }] } } } } },
  }).object as Json;
  assert.deepEqual(cron['spec'].jobTemplate.metadata, { creationTimestamp: null });
  assert.deepEqual(cron['spec'].jobTemplate.spec.template.spec.containers[0].resources, {});
  assert.deepEqual(cron['status'], {});
});

test('a zero value with omitempty is left out, and null is unset', () => {
  const { cluster } = newCluster();
  const svc = cluster.create(SVC, 'default', { apiVersion: 'v1', kind: 'Service', metadata: { name: 's', labels: null as unknown as Record<string, string> }, spec: { selector: { app: 'x' }, ports: [{ port: 80, nodePort: 0 }] } }).object as Json;
  assert.equal('nodePort' in svc['spec'].ports[0], false);
  assert.equal('labels' in svc['metadata'], false);
});

test('re-sending an object without the zero values changes nothing (no new resourceVersion)', () => {
  const { cluster } = newCluster();
  const body = (): KubeObject => ({ apiVersion: 'v1', kind: 'Event', metadata: { name: 'e2' }, involvedObject: { kind: 'Pod', name: 'p' }, reason: 'Again' });
  const first = cluster.create(EVENTS, 'default', body());
  const again = cluster.update(EVENTS, 'default', 'e2', { ...body(), metadata: { name: 'e2', resourceVersion: first.object.metadata.resourceVersion } });
  assert.equal(again.object.metadata.resourceVersion, first.object.metadata.resourceVersion);
});

test('objects of kinds the tables do not know (custom resources) are left as they are', () => {
  const widget = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { a: null } };
  assert.deepEqual(encodeAsGo(structuredClone(widget)), widget);
});
