// pods/eviction and pods/binding over HTTP, answered as kube-apiserver answers them: an eviction
// deletes the Pod unless its PodDisruptionBudget allows no disruption (429), a binding sets
// spec.nodeName once (409 after), both answer a Success Status with 201.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const suite = suiteServer();
const PODS = '/api/v1/namespaces/default/pods';
const PDBS = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';
const CREATED = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };

function pod(name: string, labels: Record<string, string> = {}) {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels }, spec: { containers: [{ name: 'c', image: 'busybox' }] } };
}

async function createPod(name: string, labels: Record<string, string> = {}): Promise<void> {
  const r = await call(suite.server, 'POST', PODS, { body: pod(name, labels) });
  assert.equal(r.status, 201, r.body);
}

/** A Pod the kubelet reports Running and Ready (a Pending one is evicted without a look at budgets). */
async function createRunningPod(name: string, labels: Record<string, string>): Promise<void> {
  await createPod(name, labels);
  const status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };
  const r = await call(suite.server, 'PATCH', `${PODS}/${name}/status`, { body: { status }, contentType: 'application/merge-patch+json' });
  assert.equal(r.status, 200, r.body);
}

async function createBudget(name: string, app: string, status: Record<string, unknown>): Promise<void> {
  const created = await call(suite.server, 'POST', PDBS, { body: { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name }, spec: { minAvailable: 1, selector: { matchLabels: { app } } } } });
  assert.equal(created.status, 201, created.body);
  const generation = created.json().metadata.generation;
  const r = await call(suite.server, 'PATCH', `${PDBS}/${name}/status`, { body: { status: { observedGeneration: generation, ...status } }, contentType: 'application/merge-patch+json' });
  assert.equal(r.status, 200, r.body);
}

function evict(name: string, extra: Record<string, unknown> = {}) {
  return call(suite.server, 'POST', `${PODS}/${name}/eviction`, { body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name }, ...extra } });
}

describe('pods/eviction', () => {
  it('is in discovery as kubectl drain looks for it: pods/eviction, kind policy/v1 Eviction, verb create', async () => {
    const resources = (await call(suite.server, 'GET', '/api/v1')).json().resources as { name: string; group?: string; version?: string; kind: string; verbs: string[] }[];
    const eviction = resources.find((r) => r.name === 'pods/eviction');
    assert.deepEqual(eviction, { name: 'pods/eviction', singularName: '', namespaced: true, group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] });
    assert.deepEqual(resources.find((r) => r.name === 'pods/binding'), { name: 'pods/binding', singularName: '', namespaced: true, kind: 'Binding', verbs: ['create'] });
  });

  it('deletes a Pod no budget covers, with the eviction\'s DeleteOptions, and answers 201 Success', async () => {
    await createRunningPod('free', { app: 'free' });
    const r = await evict('free', { deleteOptions: { gracePeriodSeconds: 0 } });
    assert.equal(r.status, 201, r.body);
    assert.deepEqual(r.json(), CREATED);
    assert.equal((await call(suite.server, 'GET', `${PODS}/free`)).status, 404);
  });

  it('refuses with 429 TooManyRequests when the Pod\'s budget allows no disruption, and keeps the Pod', async () => {
    await createBudget('guarded', 'guarded', { disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 });
    await createRunningPod('guarded-1', { app: 'guarded' });
    const r = await evict('guarded-1');
    assert.equal(r.status, 429, r.body);
    assert.deepEqual(r.json(), {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      reason: 'TooManyRequests',
      details: { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget guarded needs 1 healthy pods and has 1 currently' }] },
      code: 429,
    });
    assert.equal((await call(suite.server, 'GET', `${PODS}/guarded-1`)).status, 200);
  });

  it('takes one allowed disruption from the budget (recording the Pod) and deletes the Pod', async () => {
    await createBudget('roomy', 'roomy', { disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2 });
    await createRunningPod('roomy-1', { app: 'roomy' });
    const r = await evict('roomy-1');
    assert.equal(r.status, 201, r.body);
    assert.equal((await call(suite.server, 'GET', `${PODS}/roomy-1`)).status, 404);
    const status = (await call(suite.server, 'GET', `${PDBS}/roomy`)).json().status;
    assert.equal(status.disruptionsAllowed, 0);
    assert.deepEqual(Object.keys(status.disruptedPods), ['roomy-1']);
    assert.equal(status.conditions.find((c: { type: string }) => c.type === 'DisruptionAllowed').reason, 'InsufficientPods');
  });

  it('evicts a Pending Pod without a look at its budget; a dry run deletes nothing', async () => {
    await createBudget('pending', 'pending', { disruptionsAllowed: 0 });
    await createPod('pending-1', { app: 'pending' });
    const dry = await call(suite.server, 'POST', `${PODS}/pending-1/eviction?dryRun=All`, { body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'pending-1' } } });
    assert.equal(dry.status, 201, dry.body);
    assert.equal((await call(suite.server, 'GET', `${PODS}/pending-1`)).status, 200);
    assert.equal((await evict('pending-1')).status, 201);
    assert.equal((await call(suite.server, 'GET', `${PODS}/pending-1`)).status, 404);
  });

  it('answers 404 for a missing Pod, 400 for a name that is not the URL\'s, 405 for anything but POST', async () => {
    const missing = await evict('nobody');
    assert.equal(missing.status, 404);
    assert.equal(missing.json().message, 'pods "nobody" not found');
    await createPod('named');
    const wrongName = await call(suite.server, 'POST', `${PODS}/named/eviction`, { body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'other' } } });
    assert.equal(wrongName.status, 400);
    assert.equal(wrongName.json().message, 'name in URL does not match name in Eviction object');
    assert.equal((await call(suite.server, 'GET', `${PODS}/named/eviction`)).status, 405);
  });
});

describe('pods/binding', () => {
  it('sets spec.nodeName and PodScheduled, answers 201 Success; a second binding is a 409 Conflict', async () => {
    await createPod('bound');
    const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'bound', annotations: { 'scheduled-by': 'test' } }, target: { kind: 'Node', name: 'node-a' } };
    const r = await call(suite.server, 'POST', `${PODS}/bound/binding`, { body: binding });
    assert.equal(r.status, 201, r.body);
    assert.deepEqual(r.json(), CREATED);
    const bound = (await call(suite.server, 'GET', `${PODS}/bound`)).json();
    assert.equal(bound.spec.nodeName, 'node-a');
    assert.equal(bound.metadata.annotations['scheduled-by'], 'test');
    assert.equal(bound.status.conditions.find((c: { type: string }) => c.type === 'PodScheduled').status, 'True');

    const again = await call(suite.server, 'POST', `${PODS}/bound/binding`, { body: { ...binding, target: { name: 'node-b' } } });
    assert.equal(again.status, 409);
    assert.equal(again.json().message, 'Operation cannot be fulfilled on pods/binding "bound": pod bound is already assigned to node "node-a"');
    assert.equal((await call(suite.server, 'GET', `${PODS}/bound`)).json().spec.nodeName, 'node-a');
  });

  it('is also taken in its older form, a Binding POSTed to the namespace\'s bindings collection', async () => {
    await createPod('old-style');
    const r = await call(suite.server, 'POST', '/api/v1/namespaces/default/bindings', { body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'old-style' }, target: { name: 'node-c' } } });
    assert.equal(r.status, 201, r.body);
    assert.equal((await call(suite.server, 'GET', `${PODS}/old-style`)).json().spec.nodeName, 'node-c');
    const resources = (await call(suite.server, 'GET', '/api/v1')).json().resources as { name: string }[];
    assert.deepEqual(resources.find((x) => x.name === 'bindings'), { name: 'bindings', singularName: 'binding', namespaced: true, kind: 'Binding', verbs: ['create'] });
  });

  it('needs a target name (the real server\'s unwrapped validation error, a 500)', async () => {
    await createPod('untargeted');
    const r = await call(suite.server, 'POST', `${PODS}/untargeted/binding`, { body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'untargeted' }, target: {} } });
    assert.equal(r.status, 500);
    assert.equal(r.json().message, 'target.name: Required value');
    assert.equal((await call(suite.server, 'GET', `${PODS}/untargeted`)).json().spec.nodeName, undefined);
  });
});
