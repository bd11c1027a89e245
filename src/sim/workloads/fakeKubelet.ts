import { createHash } from 'node:crypto';
import { objectKey, splitKey } from '../../shared/keys.ts';
import type { KubeObject } from '../../shared/k8s.ts';
import type { RequestContext } from '../store/types.ts';
import type { ControllerDefinition } from './controllerLoop.ts';
import { fakeNodeName, nodeAddress } from './fakeNodes.ts';
import { phaseOf, timeString } from './pods.ts';
import { runDurationMs } from './sleepCommands.ts';
import { podQosClass } from '../vocabulary/podQos.ts';
import { eventRecorder, type EventRecorder } from './eventRecorder.ts';
import { setCondition, writeStatusIfChanged, type Condition } from './status.ts';
import type { WorkloadOptions } from './workloadOptions.ts';
import { getObject, PODS, type WorkloadCluster } from './workloadCluster.ts';

// The kubelets of the fake Nodes, as kwok plays them: a Pod bound to a fake Node becomes Running
// and Ready after podStartDelayMs; a Job's Pod (restartPolicy Never or OnFailure) then Succeeds
// after jobPodDurationMs, or as long as its containers' `sleep N` commands say (sleepCommands.ts).
// A chosen share of Pods fails instead (CrashLoopBackOff, or Failed for Job Pods). Which Pods fail
// follows from their uid, so a seeded scenario fails the same Pods each run.

interface ContainerSpec {
  name: string;
  image?: string;
  command?: unknown;
  args?: unknown;
}

interface PodSpecView {
  nodeName?: string;
  restartPolicy?: string;
  containers?: ContainerSpec[];
}

/** A number in [0, 1) fixed by the Pod's uid. */
function fate(pod: Readonly<KubeObject>): number {
  return createHash('sha256').update(pod.metadata.uid ?? pod.metadata.name ?? '').digest().readUInt32BE(0) / 2 ** 32;
}

export function fakeKubelet(cluster: WorkloadCluster, options: WorkloadOptions): ControllerDefinition {
  const nodeIndex = new Map<string, number>();
  for (let i = 0; i < options.nodes; i++) nodeIndex.set(fakeNodeName(i), i);
  /** When each Pod was first seen on its Node: the start of its start-up delay. */
  const seenAt = new Map<string, number>();
  const lastIp = new Map<number, number>();
  const recorders = new Map<string, EventRecorder>();
  /** What a kubelet records as it starts a Pod's containers (each on the Pod, naming the container). */
  const recordStart = (pod: KubeObject, node: string, containers: readonly ContainerSpec[], crashLoops: boolean, ctx: RequestContext): void => {
    let events = recorders.get(node);
    if (!events) recorders.set(node, (events = eventRecorder(cluster, { component: 'kubelet', host: node })));
    for (const c of containers) {
      const fieldPath = `spec.containers{${c.name}}`;
      events.record(pod, 'Normal', 'Pulled', `Container image "${c.image ?? ''}" already present on machine`, ctx, fieldPath);
      events.record(pod, 'Normal', 'Created', `Created container ${c.name}`, ctx, fieldPath);
      events.record(pod, 'Normal', 'Started', `Started container ${c.name}`, ctx, fieldPath);
      if (crashLoops) events.record(pod, 'Warning', 'BackOff', `Back-off restarting failed container ${c.name} in pod ${pod.metadata.name ?? ''}_${pod.metadata.namespace ?? ''}(${pod.metadata.uid ?? ''})`, ctx, fieldPath);
    }
  };

  const podIp = (node: number): string => {
    const n = (lastIp.get(node) ?? 0) + 1;
    lastIp.set(node, n);
    return `10.244.${node}.${(n % 253) + 1}`;
  };

  return {
    name: 'kubelet',
    watches: [
      {
        gvr: PODS,
        keysFor: (pod, type) => {
          const key = objectKey(pod);
          const node = ((pod.spec ?? {}) as PodSpecView).nodeName;
          if (type === 'DELETED') {
            seenAt.delete(key);
            return [];
          }
          return node && nodeIndex.has(node) ? [key] : [];
        },
      },
    ],
    reconcile(key: string, ctx: RequestContext): number | void {
      const { namespace, name } = splitKey(key);
      const pod = getObject(cluster, PODS, namespace, name, ctx);
      if (!pod || pod.metadata.deletionTimestamp) return;
      const spec = (pod.spec ?? {}) as PodSpecView;
      const node = nodeIndex.get(spec.nodeName ?? '');
      if (node === undefined) return;
      const now = cluster.clock.now();
      const phase = phaseOf(pod);
      if (phase === 'Succeeded' || phase === 'Failed') return;
      if (!seenAt.has(key)) seenAt.set(key, now);
      const startAt = (seenAt.get(key) ?? now) + options.podStartDelayMs;
      const runsToCompletion = spec.restartPolicy === 'Never' || spec.restartPolicy === 'OnFailure';
      const fails = fate(pod) < options.podFailureRate;
      const runsFor = runDurationMs(spec.containers ?? [], options.jobPodDurationMs);
      const status = (pod.status ?? {}) as { startTime?: string; podIP?: string; conditions?: Condition[] };

      if (now < startAt) return startAt - now;
      if (phase === 'Pending') {
        const ip = status.podIP ?? podIp(node);
        const started = timeString(now);
        const crashLoops = fails && !runsToCompletion;
        const running = writeStatusIfChanged(cluster, PODS, pod, {
          phase: 'Running',
          hostIP: nodeAddress(node),
          hostIPs: [{ ip: nodeAddress(node) }],
          podIP: ip,
          podIPs: [{ ip }],
          startTime: status.startTime ?? started,
          qosClass: (pod.status as { qosClass?: string } | undefined)?.qosClass ?? podQosClass(pod.spec),
          conditions: podConditions(status.conditions, !crashLoops, started, spec),
          containerStatuses: (spec.containers ?? []).map((c) => (crashLoops ? crashLooping(c, started) : runningContainer(c, started))),
        }, ctx);
        recordStart(running, spec.nodeName ?? '', spec.containers ?? [], crashLoops, ctx);
        return runsToCompletion ? runsFor : undefined;
      }
      if (runsToCompletion && now >= startAt + runsFor) {
        const finished = timeString(now);
        const started = status.startTime ?? finished;
        writeStatusIfChanged(cluster, PODS, pod, {
          phase: fails ? 'Failed' : 'Succeeded',
          conditions: setCondition(setCondition(status.conditions, notReady('PodCompleted', ''), finished), { ...notReady('PodCompleted', ''), type: 'ContainersReady' }, finished),
          containerStatuses: (spec.containers ?? []).map((c) => terminatedContainer(c, started, finished, fails)),
        }, ctx);
        return;
      }
      if (runsToCompletion) return startAt + runsFor - now;
    },
  };
}

function notReady(reason: string, message: string): Condition {
  return { type: 'Ready', status: 'False', reason, message };
}

function podConditions(previous: Condition[] | undefined, ready: boolean, now: string, spec: PodSpecView): Condition[] {
  const names = (spec.containers ?? []).map((c) => c.name).join(' ');
  const unready = `containers with unready status: [${names}]`;
  let conditions = setCondition(previous, { type: 'Initialized', status: 'True', reason: '', message: '' }, now);
  conditions = setCondition(conditions, ready ? { type: 'Ready', status: 'True', reason: '', message: '' } : notReady('ContainersNotReady', unready), now);
  conditions = setCondition(conditions, ready ? { type: 'ContainersReady', status: 'True', reason: '', message: '' } : { ...notReady('ContainersNotReady', unready), type: 'ContainersReady' }, now);
  conditions = setCondition(conditions, { type: 'PodScheduled', status: 'True', reason: '', message: '' }, now);
  const order = ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled'];
  return conditions
    .sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type))
    .map((c) => {
      const out: Partial<Condition> = { ...c };
      if (!out.reason) delete out.reason;
      if (!out.message) delete out.message;
      return out as Condition;
    });
}

function baseContainer(c: ContainerSpec): Record<string, unknown> {
  const image = c.image ?? '';
  return { name: c.name, image, imageID: `kwok://${image}`, containerID: `kwok://${c.name}` };
}

function runningContainer(c: ContainerSpec, started: string): Record<string, unknown> {
  return { ...baseContainer(c), ready: true, started: true, restartCount: 0, state: { running: { startedAt: started } }, lastState: {} };
}

function crashLooping(c: ContainerSpec, at: string): Record<string, unknown> {
  return {
    ...baseContainer(c),
    ready: false,
    started: false,
    restartCount: 1,
    state: { waiting: { reason: 'CrashLoopBackOff', message: `back-off 10s restarting failed container=${c.name}` } },
    lastState: { terminated: { exitCode: 1, reason: 'Error', startedAt: at, finishedAt: at } },
  };
}

function terminatedContainer(c: ContainerSpec, started: string, finished: string, failed: boolean): Record<string, unknown> {
  return {
    ...baseContainer(c),
    ready: false,
    started: false,
    restartCount: 0,
    state: { terminated: { exitCode: failed ? 1 : 0, reason: failed ? 'Error' : 'Completed', startedAt: started, finishedAt: finished } },
    lastState: {},
  };
}
