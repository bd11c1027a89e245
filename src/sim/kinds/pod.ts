import type { KubeObject } from '../../shared/k8s.ts';
import { obj, setDefault, type Obj } from './defaulting.ts';
import type { Cause } from '../../shared/apiErrors.ts';
import { forbidden, isRecord, records, sameValue } from './fieldErrors.ts';
import type { KindStrategy, StoredObjects } from './kindStrategy.ts';
import { admitToLimitRanges } from './limitRanger.ts';
import { mountServiceAccountToken } from './serviceAccountAdmission.ts';
import { CREATE_ONLY, type KindModule } from './kindModule.ts';
import { AGE_COLUMN, col, field, humanDuration, list, NAME_COLUMN, podStatusCell, str, type Obj as Row } from '../vocabulary/tableCells.ts';
import { defaultPodSpec, validatePodSpec } from './podSpec.ts';
import { podQosClass } from '../vocabulary/podQos.ts';

// Pods: the pod spec's defaults and checks, what admission adds to a new Pod (its service account
// and its token's volume, priority, tolerations of not-ready and unreachable nodes for 300 s, the
// defaults of its namespace's LimitRanges, which then check it), and
// ValidatePodUpdate — once created, a pod's spec may
// change only in its containers' images, activeDeadlineSeconds, added tolerations and a negative
// terminationGracePeriodSeconds. The sim also lets spec.nodeName be set once: its scheduler binds
// pods with an update where kube-scheduler uses the pods/binding subresource.

const UPDATABLE = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
];

/** The new spec with what may change taken from the old one, so the rest can be compared. */
function withUpdatableFromOld(next: Record<string, unknown>, old: Record<string, unknown>): Record<string, unknown> {
  const munged = { ...next };
  for (const list of ['containers', 'initContainers']) {
    const oldList = records(old[list]);
    if (Array.isArray(next[list])) munged[list] = records(next[list]).map((c, i) => (i < oldList.length ? { ...c, image: oldList[i]?.image } : c));
  }
  munged.activeDeadlineSeconds = old.activeDeadlineSeconds;
  const oldTolerations = Array.isArray(old.tolerations) ? old.tolerations : [];
  const newTolerations = Array.isArray(next.tolerations) ? next.tolerations : [];
  if (oldTolerations.every((t) => newTolerations.some((n) => sameValue(t, n)))) munged.tolerations = old.tolerations;
  if (typeof old.terminationGracePeriodSeconds === 'number' && old.terminationGracePeriodSeconds < 0 && next.terminationGracePeriodSeconds === 1) munged.terminationGracePeriodSeconds = old.terminationGracePeriodSeconds;
  if (!old.nodeName) munged.nodeName = old.nodeName;
  return munged;
}

/** SetDefaults_Pod: what a Pod gets that a pod template does not (service links on, requests from limits). */
function defaultPodOnly(spec: Obj): void {
  setDefault(spec, 'enableServiceLinks', true);
  for (const list of ['containers', 'initContainers']) {
    for (const c of records(spec[list])) {
      const resources = isRecord(c.resources) ? c.resources : undefined;
      if (!resources || !isRecord(resources.limits)) continue;
      resources.requests = { ...resources.limits, ...(isRecord(resources.requests) ? resources.requests : {}) };
    }
  }
}

/** The admission plugins every cluster runs on a new Pod: ServiceAccount, Priority, DefaultTolerationSeconds. */
function admitPod(spec: Obj): void {
  setDefault(spec, 'serviceAccountName', 'default');
  spec.serviceAccount = spec.serviceAccountName;
  // A named PriorityClass's value would come from the class; without one it is 0.
  if (!spec.priorityClassName) setDefault(spec, 'priority', 0);
  setDefault(spec, 'preemptionPolicy', 'PreemptLowerPriority');
  const tolerations = records(spec.tolerations);
  for (const key of ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']) {
    if (!tolerations.some((t) => t.key === key && (t.effect === 'NoExecute' || !t.effect))) tolerations.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 });
  }
  spec.tolerations = tolerations;
}

export const podStrategy: KindStrategy = {
  defaults(o: KubeObject): void {
    const spec = obj(o as Obj, 'spec');
    defaultPodSpec(spec);
    defaultPodOnly(spec);
  },

  // Old kubelets corrupted owner references through /status, which broke garbage collection.
  statusKeepsMetadata: ['ownerReferences'],

  prepareForCreate(o: KubeObject, stored: StoredObjects): void {
    const spec = obj(o as Obj, 'spec');
    admitPod(spec);
    mountServiceAccountToken(o, spec, stored);
    admitToLimitRanges(o, spec, stored);
    // The phase the server fills in (the kubelet moves it on), and the QoS class of what it asks for.
    o.status = { phase: 'Pending', qosClass: podQosClass(spec) };
  },

  validate(o: Readonly<KubeObject>): Cause[] {
    return validatePodSpec(o.spec, 'spec');
  },

  // A pod no node runs, or one that has finished, is deleted at once (period 0); a bound one gets
  // the request's period or its own, a negative one made 1 (CheckGracefulDelete).
  deletionGracePeriod(o: Readonly<KubeObject>, requested: number | undefined): number {
    const spec = isRecord(o.spec) ? o.spec : {};
    const phase = isRecord(o.status) ? o.status.phase : undefined;
    if (!spec.nodeName || phase === 'Succeeded' || phase === 'Failed') return 0;
    const period = requested ?? (typeof spec.terminationGracePeriodSeconds === 'number' ? spec.terminationGracePeriodSeconds : 30);
    return period < 0 ? 1 : period;
  },

  validateUpdate(before: Readonly<KubeObject>, after: Readonly<KubeObject>): Cause[] {
    const old = isRecord(before.spec) ? before.spec : {};
    const next = isRecord(after.spec) ? after.spec : {};
    const munged = withUpdatableFromOld(next, old);
    const changed = Object.keys({ ...old, ...munged }).filter((k) => !sameValue(old[k], munged[k]));
    if (changed.length === 0) return [];
    return [forbidden('spec', `pod updates may not change fields other than ${UPDATABLE.join(',')}\nchanged: ${changed.map((k) => `spec.${k}`).join(', ')}`)];
  },
};

function podReady(o: Row): string {
  const statuses = field(o, 'status.containerStatuses');
  const containers = field(o, 'spec.containers');
  const total = Array.isArray(containers) ? containers.length : 0;
  const ready = Array.isArray(statuses) ? statuses.filter((s) => (s as { ready?: unknown }).ready === true).length : 0;
  return `${ready}/${total}`;
}

/** printPod's restarts: the containers' total, with how long ago the last one ended (`2 (5m ago)`). */
function podRestarts(o: Row, now: number): string {
  let restarts = 0;
  let last = NaN;
  for (const s of list(o, 'status.containerStatuses')) {
    if (typeof s['restartCount'] === 'number') restarts += s['restartCount'];
    const finished = Date.parse(str(s, 'lastState.terminated.finishedAt'));
    if (!Number.isNaN(finished) && !(finished <= last)) last = finished;
  }
  return restarts !== 0 && !Number.isNaN(last) ? `${restarts} (${humanDuration(now - last)} ago)` : String(restarts);
}

/** How many of the Pod's readiness gates its conditions say are True (`1/2`), `<none>` without gates. */
function readinessGates(o: Row): string {
  const gates = list(o, 'spec.readinessGates');
  if (gates.length === 0) return '<none>';
  const trueConditions = new Set(list(o, 'status.conditions').filter((c) => c['status'] === 'True').map((c) => c['type']));
  return `${gates.filter((g) => trueConditions.has(g['conditionType'])).length}/${gates.length}`;
}

export const podKind: KindModule = {
  api: {
    group: '', version: 'v1', resource: 'pods', kind: 'Pod', shortNames: ['po'], categories: ['all'], status: true,
    more: [
      { name: 'binding', kind: 'Binding', verbs: CREATE_ONLY },
      { name: 'eviction', kind: 'Eviction', group: 'policy', version: 'v1', verbs: CREATE_ONLY },
    ],
  },
  strategy: podStrategy,
  zeroStatus: () => ({}),
  columns: [
    NAME_COLUMN,
    col('Ready', podReady),
    col('Status', podStatusCell),
    col('Restarts', podRestarts),
    AGE_COLUMN,
    col('IP', (o) => str(o, 'status.podIP', '<none>'), 'string', 1),
    col('Node', (o) => str(o, 'spec.nodeName', '<none>'), 'string', 1),
    col('Nominated Node', (o) => str(o, 'status.nominatedNodeName', '<none>'), 'string', 1, 'nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on this node to a higher priority pod that is created after preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.'),
    col('Readiness Gates', readinessGates, 'string', 1, 'If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to "True" More info: https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates'),
  ],
};
