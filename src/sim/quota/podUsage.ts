import type { KubeObject } from '../../shared/k8s.ts';
import { podQosClass } from '../vocabulary/podQos.ts';
import { Quantity } from '../vocabulary/quantity.ts';
import { add, max, resourceList, type ResourceList } from '../vocabulary/resourceList.ts';

// What a Pod charges to a quota (pkg/quota/v1/evaluator/core/pods.go): `count/pods` always, and
// while it is not finished (nor past its deletion grace period) `pods` and its compute resources —
// the app containers' sum, or the largest init container if that is more, plus the overhead —
// under their quota names (`cpu` and `requests.cpu`, `limits.cpu`, `requests.<extended resource>`).
// Its scopes: Terminating (an activeDeadlineSeconds), BestEffort (no cpu or memory asked for
// anywhere), PriorityClass.

interface Resources {
  requests?: unknown;
  limits?: unknown;
}

interface Container {
  name?: string;
  resources?: Resources;
}

export interface PodView {
  spec?: {
    containers?: Container[];
    initContainers?: Container[];
    overhead?: unknown;
    activeDeadlineSeconds?: number;
    priorityClassName?: string;
  };
  status?: { phase?: string };
}

const ONE = new Quantity(1n, 1n);
const NATIVE = ['cpu', 'memory', 'ephemeral-storage'];

/** A resource outside kubernetes.io that names a domain (`example.com/dongle`): an extended resource. */
export function isExtendedResource(name: string): boolean {
  return name.includes('/') && !name.startsWith('kubernetes.io/') && !name.startsWith('requests.') && !name.startsWith('limits.');
}

const containersOf = (pod: PodView): Container[] => (Array.isArray(pod.spec?.containers) ? pod.spec.containers : []);
const initContainersOf = (pod: PodView): Container[] => (Array.isArray(pod.spec?.initContainers) ? pod.spec.initContainers : []);

/** A container's (or a pod's) requests and limits under the names quotas use. */
export function computeUsage(requests: ResourceList, limits: ResourceList): ResourceList {
  const out: ResourceList = new Map([['pods', ONE]]);
  for (const r of NATIVE) {
    const request = requests.get(r);
    if (request) {
      out.set(r, request);
      out.set(`requests.${r}`, request);
    }
    const limit = limits.get(r);
    if (limit) out.set(`limits.${r}`, limit);
  }
  for (const [r, request] of requests) {
    if (r.startsWith('hugepages-')) {
      out.set(r, request);
      out.set(`requests.${r}`, request);
    }
    if (isExtendedResource(r)) out.set(`requests.${r}`, request);
  }
  return out;
}

function podTotals(pod: PodView, field: keyof Resources): ResourceList {
  let total: ResourceList = new Map();
  for (const c of containersOf(pod)) total = add(total, resourceList(c.resources?.[field]));
  for (const c of initContainersOf(pod)) total = max(total, resourceList(c.resources?.[field]));
  return add(total, resourceList(pod.spec?.overhead));
}

/** Whether the pod still counts for compute quota (QuotaV1Pod). */
export function chargedForCompute(pod: Readonly<KubeObject>, nowMs: number): boolean {
  const { deletionTimestamp, deletionGracePeriodSeconds } = pod.metadata;
  if (deletionTimestamp && deletionGracePeriodSeconds !== undefined && nowMs > Date.parse(deletionTimestamp) + deletionGracePeriodSeconds * 1000) return false;
  const phase = (pod as PodView).status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed';
}

export function podUsage(pod: Readonly<KubeObject>, nowMs: number): ResourceList {
  const countOnly: ResourceList = new Map([['count/pods', ONE]]);
  if (!chargedForCompute(pod, nowMs)) return countOnly;
  const view = pod as PodView;
  return add(countOnly, computeUsage(podTotals(view, 'requests'), podTotals(view, 'limits')));
}

/** QoS class BestEffort: no container asks for or limits cpu or memory. */
export function isBestEffort(pod: Readonly<KubeObject>): boolean {
  return podQosClass(pod.spec) === 'BestEffort';
}

export function isTerminating(pod: Readonly<KubeObject>): boolean {
  const deadline = (pod as PodView).spec?.activeDeadlineSeconds;
  return typeof deadline === 'number' && deadline >= 0;
}

/** The containers (app and init) missing one of the `required` compute resources, by resource. */
export function missingComputeResources(pod: Readonly<KubeObject>, required: ReadonlySet<string>): Map<string, string[]> {
  const missing = new Map<string, string[]>();
  const view = pod as PodView;
  for (const c of [...containersOf(view), ...initContainersOf(view)]) {
    const has = computeUsage(resourceList(c.resources?.requests), resourceList(c.resources?.limits));
    for (const r of required) {
      if (has.has(r)) continue;
      const names = missing.get(r) ?? [];
      if (!names.includes(c.name ?? '')) names.push(c.name ?? '');
      missing.set(r, names);
    }
  }
  return missing;
}
