import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { condition, GVR, statusOf, workloadLab } from './harness.ts';

// Jobs complete (or fail past their backoff limit), StatefulSets create their ordinals in order,
// DaemonSets put one Pod on every fake Node.

const template = (restartPolicy?: string) => ({ metadata: { labels: { app: 'w' } }, spec: { containers: [{ name: 'c', image: 'busybox' }], ...(restartPolicy ? { restartPolicy } : {}) } });

function job(name: string, completions: number, parallelism: number, backoffLimit = 6): KubeObject {
  return { apiVersion: 'batch/v1', kind: 'Job', metadata: { name }, spec: { completions, parallelism, backoffLimit, template: template('Never') } };
}

test('a Job runs `parallelism` Pods at a time until `completions` succeed, then is Complete', async () => {
  const lab = workloadLab();
  lab.cluster.create(GVR.jobs, 'default', job('batch', 5, 2));
  let mostActive = 0;
  await lab.until(() => condition(lab.items(GVR.jobs)[0], 'Complete')?.status === 'True', 60_000, () => {
    mostActive = Math.max(mostActive, lab.items(GVR.pods).filter((p) => ['Pending', 'Running', undefined].includes(statusOf(p).phase as string)).length);
  });
  const s = statusOf(lab.items(GVR.jobs)[0]);
  assert.equal(s.succeeded, 5);
  assert.equal(s.active, undefined);
  assert.ok(s.completionTime && s.startTime);
  assert.equal(mostActive, 2, 'never more than parallelism Pods at once');
  const pods = lab.items(GVR.pods);
  assert.equal(pods.length, 5);
  for (const p of pods) {
    assert.equal(statusOf(p).phase, 'Succeeded');
    assert.equal(p.metadata.labels?.['job-name'], 'batch');
  }
  await lab.cluster.close();
});

test('a Job whose Pods fail stops at its backoff limit with Failed=True', async () => {
  const lab = workloadLab({ podFailureRate: 1 });
  lab.cluster.create(GVR.jobs, 'default', job('doomed', 1, 1, 2));
  await lab.until(() => condition(lab.items(GVR.jobs)[0], 'Failed')?.status === 'True');
  assert.equal(condition(lab.items(GVR.jobs)[0], 'Failed')?.reason, 'BackoffLimitExceeded');
  assert.equal(statusOf(lab.items(GVR.jobs)[0]).failed, 3);
  await lab.cluster.close();
});

test('a StatefulSet creates web-0, web-1, web-2 one at a time, each once the previous is Ready', async () => {
  const lab = workloadLab();
  const created: string[] = [];
  const readyWhenCreated: boolean[] = [];
  lab.cluster.create(GVR.statefulsets, 'default', {
    apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'web' },
    spec: { replicas: 3, serviceName: 'web', selector: { matchLabels: { app: 'w' } }, template: template() },
  });
  await lab.until(() => statusOf(lab.items(GVR.statefulsets)[0]).readyReplicas === 3, 60_000, () => {
    const pods = lab.items(GVR.pods);
    for (const p of pods) {
      const name = p.metadata.name!;
      if (created.includes(name)) continue;
      created.push(name);
      readyWhenCreated.push(pods.filter((q) => q !== p).every((q) => condition(q, 'Ready')?.status === 'True'));
    }
  });
  assert.deepEqual(created, ['web-0', 'web-1', 'web-2']);
  assert.deepEqual(readyWhenCreated, [true, true, true]);
  const pod = lab.items(GVR.pods).find((p) => p.metadata.name === 'web-1')!;
  assert.equal((pod.spec as { hostname: string }).hostname, 'web-1');
  assert.equal((pod.spec as { subdomain: string }).subdomain, 'web');
  const s = statusOf(lab.items(GVR.statefulsets)[0]);
  assert.equal(s.currentRevision, s.updateRevision);
  await lab.cluster.close();
});

test('a DaemonSet runs one Pod on each fake Node and a new Node gets one too', async () => {
  const lab = workloadLab({ nodes: 2 });
  lab.cluster.create(GVR.daemonsets, 'default', {
    apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent' },
    spec: { selector: { matchLabels: { app: 'w' } }, template: template() },
  });
  await lab.until(() => statusOf(lab.items(GVR.daemonsets)[0]).numberReady === 2);
  const nodes = lab.items(GVR.pods).map((p) => (p.spec as { nodeName: string }).nodeName).sort();
  assert.deepEqual(nodes, ['sim-worker-1', 'sim-worker-2']);

  const node = structuredClone(lab.cluster.list(GVR.nodes, {}).items[0]!.object) as KubeObject;
  const status = node.status;
  node.metadata = { name: 'extra', labels: { 'kubernetes.io/hostname': 'extra' } };
  const created = structuredClone(lab.cluster.create(GVR.nodes, '', node).object) as KubeObject;
  lab.cluster.update(GVR.nodes, '', 'extra', { ...created, status }, 'status');
  await lab.until(() => statusOf(lab.items(GVR.daemonsets)[0]).desiredNumberScheduled === 3 && lab.items(GVR.pods).length === 3);
  assert.ok(lab.items(GVR.pods).some((p) => (p.spec as { nodeName: string }).nodeName === 'extra'));
  await lab.cluster.close();
});
