import { test } from 'node:test';
import assert from 'node:assert/strict';
import { condition, deployment, GVR, statusOf, workloadLab, type Lab } from './harness.ts';
import { newCluster, tick } from '../store/helpers.ts';

// Deployments roll out on the simulated cluster when the workload simulation is on: ReplicaSets,
// Pods bound to fake Nodes, Running and Ready, and the status `kubectl rollout status` reads.

function web(lab: Lab) {
  return lab.items(GVR.deployments).find((d) => d.metadata.name === 'web');
}

function rolledOut(lab: Lab, replicas: number): boolean {
  const d = web(lab);
  const s = statusOf(d);
  return s.observedGeneration === d?.metadata.generation && s.updatedReplicas === replicas && s.availableReplicas === replicas && s.replicas === replicas;
}

test('a Deployment gets one ReplicaSet, its Pods run on the fake Nodes, and it becomes Available', async () => {
  const lab = workloadLab();
  lab.cluster.create(GVR.deployments, 'default', deployment('web', 3, 'nginx:1.25'));
  await lab.until(() => rolledOut(lab, 3));

  const [rs, ...more] = lab.items(GVR.replicasets);
  assert.equal(more.length, 0);
  const hash = rs!.metadata.labels?.['pod-template-hash'];
  assert.ok(hash && rs!.metadata.name === `web-${hash}`, `ReplicaSet named web-<hash>: ${rs!.metadata.name}`);
  assert.equal(rs!.metadata.ownerReferences?.[0]?.kind, 'Deployment');
  assert.equal(rs!.metadata.annotations?.['deployment.kubernetes.io/revision'], '1');

  const pods = lab.items(GVR.pods);
  assert.equal(pods.length, 3);
  const nodes = new Set(pods.map((p) => (p.spec as { nodeName: string }).nodeName));
  assert.deepEqual([...nodes].sort(), ['sim-worker-1', 'sim-worker-2', 'sim-worker-3'], 'spread over the three fake Nodes');
  for (const p of pods) {
    assert.equal(statusOf(p).phase, 'Running');
    assert.equal(condition(p, 'Ready')?.status, 'True');
    assert.equal(p.metadata.labels?.['pod-template-hash'], hash);
  }
  const d = web(lab);
  assert.equal(condition(d, 'Available')?.status, 'True');
  assert.equal(condition(d, 'Progressing')?.reason, 'NewReplicaSetAvailable');
  assert.equal(d!.metadata.annotations?.['deployment.kubernetes.io/revision'], '1');
  await lab.cluster.close();
});

test('a rolling update stays within maxSurge and maxUnavailable and ends on the new ReplicaSet', async () => {
  const lab = workloadLab();
  lab.cluster.create(GVR.deployments, 'default', deployment('web', 8, 'nginx:1.25'));
  await lab.until(() => rolledOut(lab, 8));
  const first = lab.items(GVR.replicasets)[0]!.metadata.name;

  lab.cluster.patch(GVR.deployments, 'default', 'web', 'merge', { spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx:1.26' }] } } } });
  // 25% of 8: at most 10 Pods, at least 6 available, at every step of the rollout.
  let most = 0;
  let fewestAvailable = Infinity;
  await lab.until(() => rolledOut(lab, 8) && lab.items(GVR.pods).length === 8, 60_000, () => {
    const pods = lab.items(GVR.pods);
    most = Math.max(most, pods.length);
    fewestAvailable = Math.min(fewestAvailable, pods.filter((p) => condition(p, 'Ready')?.status === 'True').length);
  });
  assert.ok(most <= 10, `never more than replicas + maxSurge Pods (saw ${most})`);
  assert.ok(most > 8, 'the rollout surged');
  assert.ok(fewestAvailable >= 6, `never fewer than replicas − maxUnavailable ready Pods (saw ${fewestAvailable})`);

  const sets = lab.items(GVR.replicasets);
  assert.equal(sets.length, 2);
  const old = sets.find((rs) => rs.metadata.name === first)!;
  const next = sets.find((rs) => rs.metadata.name !== first)!;
  assert.equal((old.spec as { replicas: number }).replicas, 0);
  assert.equal((next.spec as { replicas: number }).replicas, 8);
  assert.equal(next.metadata.annotations?.['deployment.kubernetes.io/revision'], '2');
  for (const p of lab.items(GVR.pods)) assert.equal((p.spec as { containers: { image: string }[] }).containers[0]!.image, 'nginx:1.26');
  await lab.cluster.close();
});

test('Recreate removes every old Pod before the new ones start', async () => {
  const lab = workloadLab();
  lab.cluster.create(GVR.deployments, 'default', deployment('web', 4, 'nginx:1.25', { type: 'Recreate' }));
  await lab.until(() => rolledOut(lab, 4));
  lab.cluster.patch(GVR.deployments, 'default', 'web', 'merge', { spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx:1.26' }] } } } });
  let mixed = false;
  await lab.until(() => rolledOut(lab, 4) && lab.items(GVR.pods).every((p) => (p.spec as { containers: { image: string }[] }).containers[0]!.image === 'nginx:1.26'), 60_000, () => {
    const images = new Set(lab.items(GVR.pods).map((p) => (p.spec as { containers: { image: string }[] }).containers[0]!.image));
    if (images.size > 1) mixed = true;
  });
  assert.equal(mixed, false, 'old and new Pods never ran together');
  await lab.cluster.close();
});

test('scaling down removes Pods and the status follows', async () => {
  const lab = workloadLab();
  lab.cluster.create(GVR.deployments, 'default', deployment('web', 5, 'nginx:1.25'));
  await lab.until(() => rolledOut(lab, 5));
  lab.cluster.patch(GVR.deployments, 'default', 'web', 'merge', { spec: { replicas: 2 } });
  await lab.until(() => rolledOut(lab, 2) && lab.items(GVR.pods).length === 2);
  assert.equal(lab.items(GVR.pods).length, 2);
  await lab.cluster.close();
});

test('with no schedulable Node a Pod stays Pending with PodScheduled=False', async () => {
  const lab = workloadLab({ nodes: 0 });
  lab.cluster.create(GVR.deployments, 'default', deployment('web', 1, 'nginx:1.25'));
  await lab.run(3000);
  const [pod] = lab.items(GVR.pods);
  assert.equal(statusOf(pod).phase, 'Pending');
  assert.equal(condition(pod, 'PodScheduled')?.reason, 'Unschedulable');
  assert.equal(condition(web(lab), 'Available')?.status, 'False');
  await lab.cluster.close();
});

test('failing Pods crash-loop and keep the Deployment unavailable', async () => {
  const lab = workloadLab({ podFailureRate: 1 });
  lab.cluster.create(GVR.deployments, 'default', deployment('web', 2, 'nginx:1.25'));
  await lab.run(3000);
  const pods = lab.items(GVR.pods);
  assert.equal(pods.length, 2);
  for (const p of pods) {
    const waiting = (statusOf(p).containerStatuses as { state: { waiting?: { reason: string } } }[])[0]!.state.waiting;
    assert.equal(waiting?.reason, 'CrashLoopBackOff');
  }
  assert.equal(statusOf(web(lab)).availableReplicas, undefined);
  await lab.cluster.close();
});

test('off by default: a Deployment gets no ReplicaSet, so user controllers are not raced', async () => {
  const { cluster, clock } = newCluster();
  cluster.create(GVR.deployments, 'default', deployment('web', 2, 'nginx:1.25'));
  for (let i = 0; i < 100; i++) {
    await tick();
    clock.step(10);
  }
  assert.equal(cluster.list(GVR.replicasets, { namespace: 'default' }).items.length, 0);
  assert.equal(cluster.list(GVR.nodes, {}).items.length, 0);
  await cluster.close();
});

test('each loop is its own client in the Clients view', async () => {
  const lab = workloadLab();
  lab.cluster.create(GVR.deployments, 'default', deployment('web', 1, 'nginx:1.25'));
  await lab.until(() => rolledOut(lab, 1));
  const agents = lab.cluster.clients.clients().map((c) => c.userAgent);
  for (const part of ['deployment-controller', 'replicaset-controller', 'kube-scheduler', 'fake kubelet']) {
    assert.ok(agents.some((a) => a.includes(part)), `${part} in ${agents.join(', ')}`);
  }
  await lab.cluster.close();
});

test('the controller records revisions without moving the generation: a new Deployment stays at generation 1', async () => {
  const lab = workloadLab();
  lab.cluster.create(GVR.deployments, 'default', deployment('web', 2, 'nginx:1.25'));
  await lab.until(() => rolledOut(lab, 2));
  const d = web(lab)!;
  assert.equal(d.metadata.generation, 1);
  assert.equal(d.metadata.annotations?.['deployment.kubernetes.io/revision'], '1');
  assert.equal(statusOf(d).observedGeneration, 1);
  await lab.cluster.close();
});

test('the workloads are busy while a rollout is on the way (a Pod about to start), and not once it is done', async () => {
  const lab = workloadLab({ podStartDelayMs: 500 });
  assert.equal(lab.cluster.workloadsBusy(2000), false);
  lab.cluster.create(GVR.deployments, 'default', deployment('web', 2, 'nginx:1.25'));
  await lab.run(100);
  assert.equal(lab.cluster.workloadsBusy(2000), true, 'Pods start in 500 ms');
  assert.equal(lab.cluster.workloadsBusy(10), false, 'nothing due within 10 ms');
  await lab.until(() => rolledOut(lab, 2));
  await lab.run(50);
  assert.equal(lab.cluster.workloadsBusy(2000), false);
});
