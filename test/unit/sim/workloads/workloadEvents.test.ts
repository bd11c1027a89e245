import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { EVENTS, eventRecorder } from '../../../../src/sim/workloads/eventRecorder.ts';
import { newCluster } from '../store/helpers.ts';
import { deployment, GVR, statusOf, workloadLab, type Lab } from './harness.ts';

// What `kubectl describe` and `kubectl get events` show on a real cluster: the controllers, the
// scheduler and the kubelets record Events as they work, with kube-controller-manager's reasons
// and messages, and a repeated event is counted on the Event already written.

interface EventView {
  reason: string;
  message: string;
  type: string;
  count: number;
  from: string;
  involved: string;
  fieldPath?: string;
}

function events(lab: Lab, namespace = 'default'): EventView[] {
  return lab.cluster.list(EVENTS, { namespace }).items.map((s) => {
    const e = s.object as KubeObject & { involvedObject: Record<string, string>; source: { component: string; host?: string } };
    return {
      reason: e.reason as string,
      message: e.message as string,
      type: e.type as string,
      count: e.count as number,
      from: e.source.host ? `${e.source.component}, ${e.source.host}` : e.source.component,
      involved: `${e.involvedObject.kind}/${e.involvedObject.name}`,
      ...(e.involvedObject.fieldPath ? { fieldPath: e.involvedObject.fieldPath } : {}),
    };
  });
}

function rolledOut(lab: Lab, replicas: number): boolean {
  const d = lab.items(GVR.deployments).find((o) => o.metadata.name === 'web');
  const s = statusOf(d);
  return s.observedGeneration === d?.metadata.generation && s.updatedReplicas === replicas && s.availableReplicas === replicas && s.replicas === replicas && lab.items(GVR.pods).length === replicas;
}

test('a Deployment rolling out and scaled tells its story in Events, as kubectl describe shows it', async () => {
  const lab = workloadLab();
  lab.cluster.create(GVR.deployments, 'default', deployment('web', 2, 'nginx:1.25'));
  await lab.until(() => rolledOut(lab, 2));
  const rs = lab.items(GVR.replicasets)[0]!.metadata.name!;
  const pods = lab.items(GVR.pods).map((p) => p.metadata.name!).sort();

  const all = events(lab);
  const of = (involved: string): EventView[] => all.filter((e) => e.involved === involved);
  assert.deepEqual(of('Deployment/web').map((e) => [e.reason, e.message, e.from]), [['ScalingReplicaSet', `Scaled up replica set ${rs} to 2`, 'deployment-controller']]);
  assert.deepEqual(
    of(`ReplicaSet/${rs}`).map((e) => e.message).sort(),
    pods.map((p) => `Created pod: ${p}`),
  );
  for (const pod of lab.items(GVR.pods)) {
    const node = (pod.spec as { nodeName: string }).nodeName;
    assert.deepEqual(
      of(`Pod/${pod.metadata.name}`).map((e) => [e.reason, e.message, e.from, e.fieldPath ?? '']),
      [
        ['Scheduled', `Successfully assigned default/${pod.metadata.name} to ${node}`, 'default-scheduler', ''],
        ['Pulled', 'Container image "nginx:1.25" already present on machine', `kubelet, ${node}`, 'spec.containers{app}'],
        ['Created', 'Created container app', `kubelet, ${node}`, 'spec.containers{app}'],
        ['Started', 'Started container app', `kubelet, ${node}`, 'spec.containers{app}'],
      ],
    );
  }
  assert.ok(all.every((e) => e.type === 'Normal' && e.count === 1), JSON.stringify(all));

  lab.cluster.patch(GVR.deployments, 'default', 'web', 'merge', { spec: { replicas: 1 } });
  await lab.until(() => rolledOut(lab, 1));
  const scaling = events(lab).filter((e) => e.involved === 'Deployment/web').map((e) => e.message);
  assert.ok(scaling.includes(`Scaled down replica set ${rs} to 1 from 2`), scaling.join('\n'));
  const deleted = events(lab).filter((e) => e.reason === 'SuccessfulDelete');
  assert.equal(deleted.length, 1);
  assert.match(deleted[0]!.message, new RegExp(`^Deleted pod: ${rs}-`));
  await lab.cluster.close();
});

test('a Pod no Node can take gets one FailedScheduling Warning, counted at each retry', async () => {
  const lab = workloadLab({ nodes: 1 });
  lab.cluster.create(GVR.pods, 'default', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'picky' },
    spec: { nodeSelector: { disk: 'none-has-it' }, containers: [{ name: 'app', image: 'busybox' }] },
  });
  await lab.until(() => (events(lab).find((e) => e.reason === 'FailedScheduling')?.count ?? 0) >= 2);
  const failed = events(lab).filter((e) => e.reason === 'FailedScheduling');
  assert.equal(failed.length, 1, 'one Event, its count raised');
  assert.equal(failed[0]!.type, 'Warning');
  assert.equal(failed[0]!.involved, 'Pod/picky');
  assert.match(failed[0]!.message, /^0\/1 nodes are available/);
  await lab.cluster.close();
});

test('Jobs, StatefulSets and DaemonSets record their Pods and a Job its completion', async () => {
  const lab = workloadLab();
  const template = { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'app', image: 'busybox' }] } };
  lab.cluster.create(GVR.jobs, 'default', { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'once' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'app', image: 'busybox' }] } } } });
  lab.cluster.create(GVR.statefulsets, 'default', { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db' }, spec: { replicas: 2, serviceName: 'db', selector: { matchLabels: { app: 'x' } }, template } });
  lab.cluster.create(GVR.daemonsets, 'default', { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent' }, spec: { selector: { matchLabels: { app: 'agent' } }, template: { ...template, metadata: { labels: { app: 'agent' } } } } });
  await lab.until(() => {
    const reasons = events(lab).map((e) => `${e.involved} ${e.reason}`);
    return reasons.includes('Job/once Completed') && reasons.filter((r) => r === 'StatefulSet/db SuccessfulCreate').length === 2 && reasons.filter((r) => r === 'DaemonSet/agent SuccessfulCreate').length === 3;
  });
  const messages = events(lab).map((e) => `${e.involved} ${e.reason} ${e.message}`);
  assert.ok(messages.includes('StatefulSet/db SuccessfulCreate create Pod db-0 in StatefulSet db successful'), messages.join('\n'));
  assert.ok(messages.includes('StatefulSet/db SuccessfulCreate create Pod db-1 in StatefulSet db successful'));
  assert.ok(messages.includes('Job/once Completed Job completed'));
  assert.ok(messages.some((m) => /^Job\/once SuccessfulCreate Created pod: once-\w+$/.test(m)));
  assert.ok(messages.some((m) => /^DaemonSet\/agent SuccessfulCreate Created pod: agent-\w+$/.test(m)));
  await lab.cluster.close();
});

test('the recorder counts a repeat on the Event written, writes anew when that Event is gone, and never throws', async () => {
  const { cluster } = newCluster();
  cluster.create({ group: '', version: 'v1', resource: 'namespaces' }, '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
  const cm = cluster.create({ group: '', version: 'v1', resource: 'configmaps' }, 'team', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' } }).object;
  const recorder = eventRecorder(cluster, { component: 'test-controller' });
  const list = (): KubeObject[] => cluster.list(EVENTS, { namespace: 'team' }).items.map((s) => s.object as KubeObject);

  recorder.record(cm, 'Normal', 'Synced', 'all good', {});
  recorder.record(cm, 'Normal', 'Synced', 'all good', {});
  recorder.record(cm, 'Normal', 'Synced', 'all good', {});
  assert.equal(list().length, 1);
  assert.equal(list()[0]!.count, 3);
  assert.match(list()[0]!.metadata.name!, /^cfg\.[0-9a-f]+$/);
  assert.equal((list()[0]!.involvedObject as { uid: string }).uid, cm.metadata.uid);

  recorder.record(cm, 'Warning', 'Synced', 'all good', {});
  assert.equal(list().length, 2, 'another type is another Event');

  for (const e of list()) cluster.delete(EVENTS, 'team', e.metadata.name!, {});
  recorder.record(cm, 'Normal', 'Synced', 'all good', {});
  assert.deepEqual(list().map((e) => e.count), [1], 'written anew once the old Event is gone');

  // An object in a namespace being deleted: the write is refused, the recorder says nothing.
  cluster.delete({ group: '', version: 'v1', resource: 'namespaces' }, '', 'team', {});
  assert.doesNotThrow(() => recorder.record(cm, 'Normal', 'Other', 'after', {}));
  await cluster.close();
});
