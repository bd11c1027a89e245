import type { KubeObject } from '../../shared/k8s.ts';
import { forbidden } from '../../shared/apiErrors.ts';
import type { Quantity } from '../vocabulary/quantity.ts';
import { add, max, resourceList, type ResourceList } from '../vocabulary/resourceList.ts';
import { isObj, type Obj } from './defaulting.ts';
import type { StoredObjects } from './kindStrategy.ts';

// kube-apiserver's LimitRanger admission plugin on a new Pod: each LimitRange of its namespace
// first fills in the Container item's default limits and default requests a container leaves out
// (noting what it set in the `kubernetes.io/limit-ranger` annotation), then checks every container
// (and the Pod as a whole, for a Pod item) against min, max and maxLimitRequestRatio: a 403 names
// each broken rule. Updates of a Pod are not weighed (its resources cannot change).

const ANNOTATION = 'kubernetes.io/limit-ranger';

interface LimitItem {
  type?: string;
  min?: unknown;
  max?: unknown;
  default?: unknown;
  defaultRequest?: unknown;
  maxLimitRequestRatio?: unknown;
}

interface Container extends Obj {
  name?: string;
  resources?: { requests?: Record<string, unknown>; limits?: Record<string, unknown> };
}

function limitItems(limitRange: Readonly<KubeObject>): LimitItem[] {
  const limits = ((limitRange.spec ?? {}) as { limits?: unknown }).limits;
  return Array.isArray(limits) ? limits.filter(isObj) as LimitItem[] : [];
}

function containerLists(spec: Obj): [string, Container[]][] {
  const list = (field: string): Container[] => (Array.isArray(spec[field]) ? (spec[field] as unknown[]).filter(isObj) as Container[] : []);
  return [['container', list('containers')], ['init container', list('initContainers')]];
}

/** Fills in what a container leaves out; answers the annotation's parts (`cpu, memory request for container app`). */
function fillDefaults(c: Container, what: string, requests: Record<string, unknown>, limits: Record<string, unknown>): string[] {
  const resources = (c.resources ??= {});
  const set = (field: 'requests' | 'limits', defaults: Record<string, unknown>): string[] => {
    const target = (resources[field] ??= {});
    const added = Object.keys(defaults).filter((r) => target[r] === undefined);
    for (const r of added) target[r] = defaults[r];
    if (Object.keys(target).length === 0) delete resources[field];
    return added.sort();
  };
  const parts: string[] = [];
  const setLimits = set('limits', limits);
  const setRequests = set('requests', requests);
  if (setRequests.length) parts.push(`${setRequests.join(', ')} request for ${what} ${c.name ?? ''}`);
  if (setLimits.length) parts.push(`${setLimits.join(', ')} limit for ${what} ${c.name ?? ''}`);
  return parts;
}

function applyDefaults(pod: KubeObject, spec: Obj, ranges: readonly Readonly<KubeObject>[]): void {
  for (const range of ranges) {
    const requests: Record<string, unknown> = {};
    const limits: Record<string, unknown> = {};
    for (const item of limitItems(range)) {
      if (item.type !== 'Container') continue;
      if (isObj(item.defaultRequest)) Object.assign(requests, item.defaultRequest);
      if (isObj(item.default)) Object.assign(limits, item.default);
    }
    const parts: string[] = [];
    for (const [what, containers] of containerLists(spec)) for (const c of containers) parts.push(...fillDefaults(c, what, requests, limits));
    if (parts.length) pod.metadata.annotations = { ...pod.metadata.annotations, [ANNOTATION]: `LimitRanger plugin set: ${parts.join('; ')}` };
  }
}

/** The broken rules of one item for one set of requests and limits, in the plugin's words. */
function violations(type: string, item: LimitItem, requests: ResourceList, limits: ResourceList): string[] {
  const out: string[] = [];
  const sorted = (v: unknown): [string, Quantity][] => [...resourceList(v)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [r, min] of sorted(item.min)) {
    const req = requests.get(r);
    const lim = limits.get(r);
    if (!req) out.push(`minimum ${r} usage per ${type} is ${min}.  No request is specified`);
    else if (req.compare(min) < 0) out.push(`minimum ${r} usage per ${type} is ${min}, but request is ${req}`);
    else if (lim && lim.compare(min) < 0) out.push(`minimum ${r} usage per ${type} is ${min}, but limit is ${lim}`);
  }
  for (const [r, maxQ] of sorted(item.max)) {
    const req = requests.get(r);
    const lim = limits.get(r);
    if (!lim) out.push(`maximum ${r} usage per ${type} is ${maxQ}.  No limit is specified`);
    else if (lim.compare(maxQ) > 0) out.push(`maximum ${r} usage per ${type} is ${maxQ}, but limit is ${lim}`);
    else if (req && req.compare(maxQ) > 0) out.push(`maximum ${r} usage per ${type} is ${maxQ}, but request is ${req}`);
  }
  for (const [r, ratio] of sorted(item.maxLimitRequestRatio)) {
    const req = requests.get(r);
    const lim = limits.get(r);
    if (!req || req.isZero()) out.push(`${r} max limit to request ratio per ${type} is ${ratio}, but no request is specified or request is 0`);
    else if (!lim || lim.isZero()) out.push(`${r} max limit to request ratio per ${type} is ${ratio}, but no limit is specified or limit is 0`);
    else {
      const observed = (Number(lim.num) / Number(lim.den)) / (Number(req.num) / Number(req.den));
      if (observed > Number(ratio.num) / Number(ratio.den)) out.push(`${r} max limit to request ratio per ${type} is ${ratio}, but provided ratio is ${observed.toFixed(6)}`);
    }
  }
  return out;
}

/** The pod's requests or limits as a whole: its containers' sum, or its largest init container's if more. */
function podTotal(spec: Obj, field: 'requests' | 'limits'): ResourceList {
  let total: ResourceList = new Map();
  for (const [what, containers] of containerLists(spec)) {
    for (const c of containers) total = (what === 'container' ? add : max)(total, resourceList(c.resources?.[field]));
  }
  return total;
}

function check(spec: Obj, ranges: readonly Readonly<KubeObject>[]): string[] {
  const out: string[] = [];
  for (const range of ranges) {
    for (const item of limitItems(range)) {
      if (item.type === 'Container') {
        for (const [, containers] of containerLists(spec)) {
          for (const c of containers) out.push(...violations('Container', item, resourceList(c.resources?.requests), resourceList(c.resources?.limits)));
        }
      } else if (item.type === 'Pod') {
        out.push(...violations('Pod', item, podTotal(spec, 'requests'), podTotal(spec, 'limits')));
      }
    }
  }
  return out;
}

/** Defaults, then checks, a new Pod against its namespace's LimitRanges; throws the plugin's 403. */
export function admitToLimitRanges(pod: KubeObject, spec: Obj, stored: StoredObjects): void {
  const namespace = pod.metadata.namespace ?? '';
  const ranges = [...stored.list('', 'limitranges')].filter((r) => r.metadata.namespace === namespace);
  if (ranges.length === 0) return;
  applyDefaults(pod, spec, ranges);
  const broken = check(spec, ranges);
  // utilerrors.NewAggregate: one error as itself, more in brackets.
  if (broken.length) throw forbidden('', 'pods', pod.metadata.name ?? '', broken.length === 1 ? broken[0]! : `[${broken.join(', ')}]`);
}
