import type { KubeObject } from '../../shared/k8s.ts';
import { Quantity } from '../vocabulary/quantity.ts';
import { isBestEffort, isExtendedResource, isTerminating, missingComputeResources, podUsage } from './podUsage.ts';
import { resourceList, type ResourceList } from '../vocabulary/resourceList.ts';

// How quota measures one kind of object, as the evaluators of pkg/quota/v1/evaluator/core and
// k8s.io/apiserver's generic object count evaluator do: which of a quota's hard resources it
// measures, which writes it weighs, what one object uses, and (Pods alone) its scopes. Every
// resource is counted as `count/<resource>.<group>`; a few core ones also under their old names
// (`configmaps`, `secrets`, `replicationcontrollers`, `resourcequotas`).

export interface ScopeRequirement {
  scopeName: string;
  operator: string;
  values?: string[];
}

export type QuotaOperation = 'CREATE' | 'UPDATE';

export interface Evaluator {
  /** Of a quota's resource names, the ones this evaluator measures. */
  matchingResources(names: readonly string[]): string[];
  /** Whether admission weighs this write. */
  handles(operation: QuotaOperation): boolean;
  usage(object: Readonly<KubeObject>, nowMs: number): ResourceList;
  /** Whether the object falls in a quota's scope (only Pods have scopes: the others are in none). */
  matchesScope(scope: ScopeRequirement, object: Readonly<KubeObject>): boolean;
  /** What a quota of these `required` resources asks of the object that it lacks (`must specify …`). */
  constraints(required: readonly string[], object: Readonly<KubeObject>): string | undefined;
}

const ONE = new Quantity(1n, 1n);
const ZERO = new Quantity(0n, 1n);

/** `count/pods`, `count/replicasets.apps`. */
export function objectCountName(group: string, resource: string): string {
  return group ? `count/${resource}.${group}` : `count/${resource}`;
}

/** The core resources counted under an old name too. */
const ALIASES: Record<string, string> = { configmaps: 'configmaps', secrets: 'secrets', replicationcontrollers: 'replicationcontrollers', resourcequotas: 'resourcequotas' };

function objectCountEvaluator(group: string, resource: string): Evaluator {
  const names = [objectCountName(group, resource)];
  const alias = group === '' ? ALIASES[resource] : undefined;
  if (alias) names.push(alias);
  return {
    matchingResources: (input) => input.filter((n) => names.includes(n)),
    handles: (op) => op === 'CREATE',
    usage: () => new Map(names.map((n) => [n, ONE])),
    matchesScope: () => false,
    constraints: () => undefined,
  };
}

const POD_RESOURCES = [
  'count/pods', 'pods', 'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage',
];
/** The resources a quota may require every container to state (a mistake Kubernetes keeps for compatibility). */
const MUST_SPECIFY = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

function podMatchesScope(scope: ScopeRequirement, pod: Readonly<KubeObject>): boolean {
  const spec = (pod.spec ?? {}) as { priorityClassName?: string; affinity?: Record<string, unknown> };
  switch (scope.scopeName) {
    case 'Terminating':
      return isTerminating(pod);
    case 'NotTerminating':
      return !isTerminating(pod);
    case 'BestEffort':
      return isBestEffort(pod);
    case 'NotBestEffort':
      return !isBestEffort(pod);
    case 'PriorityClass': {
      const name = spec.priorityClassName ?? '';
      switch (scope.operator) {
        case 'Exists':
          return name !== '';
        case 'DoesNotExist':
          return name === '';
        case 'In':
          return name !== '' && (scope.values ?? []).includes(name);
        case 'NotIn':
          return name === '' || !(scope.values ?? []).includes(name);
      }
      return false;
    }
    case 'CrossNamespacePodAffinity':
      return crossNamespaceAffinity(spec.affinity);
  }
  return false;
}

function crossNamespaceAffinity(affinity: Record<string, unknown> | undefined): boolean {
  const crosses = (term: unknown): boolean => {
    const t = (term ?? {}) as { namespaces?: unknown[]; namespaceSelector?: unknown; podAffinityTerm?: unknown };
    if (t.podAffinityTerm) return crosses(t.podAffinityTerm);
    return (Array.isArray(t.namespaces) && t.namespaces.length > 0) || (t.namespaceSelector !== undefined && t.namespaceSelector !== null);
  };
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const a = (affinity?.[kind] ?? {}) as Record<string, unknown>;
    for (const field of ['requiredDuringSchedulingIgnoredDuringExecution', 'preferredDuringSchedulingIgnoredDuringExecution']) {
      const terms = a[field];
      if (Array.isArray(terms) && terms.some(crosses)) return true;
    }
  }
  return false;
}

const podEvaluator: Evaluator = {
  matchingResources: (input) => input.filter((n) => POD_RESOURCES.includes(n) || n.startsWith('hugepages-') || n.startsWith('requests.hugepages-') || (n.startsWith('requests.') && isExtendedResource(n.slice('requests.'.length)))),
  // Resizing a Pod in place is off in v1.28: its usage is fixed at create.
  handles: (op) => op === 'CREATE',
  usage: podUsage,
  matchesScope: podMatchesScope,
  constraints(required, pod) {
    const missing = missingComputeResources(pod, new Set(required.filter((r) => MUST_SPECIFY.has(r))));
    if (missing.size === 0) return undefined;
    return `must specify ${[...missing.keys()].sort().map((r) => `${r} for: ${missing.get(r)!.sort().join(',')}`).join('; ')}`;
  },
};

const SERVICE_RESOURCES = ['count/services', 'services', 'services.loadbalancers', 'services.nodeports'];

function serviceUsage(svc: Readonly<KubeObject>): ResourceList {
  const spec = (svc.spec ?? {}) as { type?: string; ports?: { nodePort?: number }[]; allocateLoadBalancerNodePorts?: boolean };
  const ports = Array.isArray(spec.ports) ? spec.ports : [];
  const count = (n: number): Quantity => new Quantity(BigInt(n), 1n);
  const out: ResourceList = new Map([['count/services', ONE], ['services', ONE], ['services.loadbalancers', ZERO], ['services.nodeports', ZERO]]);
  if (spec.type === 'NodePort') out.set('services.nodeports', count(ports.length));
  if (spec.type === 'LoadBalancer') {
    // Node ports are not allocated yet: count what the Service asks for.
    out.set('services.nodeports', count(spec.allocateLoadBalancerNodePorts === false ? ports.filter((p) => p.nodePort).length : ports.length));
    out.set('services.loadbalancers', ONE);
  }
  return out;
}

const serviceEvaluator: Evaluator = {
  matchingResources: (input) => input.filter((n) => SERVICE_RESOURCES.includes(n)),
  handles: () => true,
  usage: serviceUsage,
  matchesScope: () => false,
  constraints: () => undefined,
};

const STORAGE_CLASS_SUFFIX = '.storageclass.storage.k8s.io/';

function claimUsage(pvc: Readonly<KubeObject>): ResourceList {
  const spec = (pvc.spec ?? {}) as { storageClassName?: string; resources?: { requests?: unknown } };
  const storageClass = spec.storageClassName ?? pvc.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? '';
  const out: ResourceList = new Map([['count/persistentvolumeclaims', ONE], ['persistentvolumeclaims', ONE]]);
  if (storageClass) out.set(`${storageClass}${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`, ONE);
  const storage = resourceList(spec.resources?.requests).get('storage');
  if (storage) {
    out.set('requests.storage', storage);
    if (storageClass) out.set(`${storageClass}${STORAGE_CLASS_SUFFIX}requests.storage`, storage);
  }
  return out;
}

const claimEvaluator: Evaluator = {
  matchingResources: (input) => input.filter((n) =>
    ['count/persistentvolumeclaims', 'persistentvolumeclaims', 'requests.storage'].includes(n) ||
    (n.includes(STORAGE_CLASS_SUFFIX) && (n.endsWith('/persistentvolumeclaims') || n.endsWith('/requests.storage')))),
  handles: () => true,
  usage: claimUsage,
  matchesScope: () => false,
  constraints: () => undefined,
};

/** The evaluator of one resource: the core ones by their rules, any other by its object count. */
export function evaluatorFor(group: string, resource: string): Evaluator {
  if (group === '') {
    if (resource === 'pods') return podEvaluator;
    if (resource === 'services') return serviceEvaluator;
    if (resource === 'persistentvolumeclaims') return claimEvaluator;
  }
  return objectCountEvaluator(group, resource);
}

/** The group and resource a `count/<resource>.<group>` name counts, or undefined for another name. */
export function countedResource(name: string): { group: string; resource: string } | undefined {
  if (!name.startsWith('count/')) return undefined;
  const rest = name.slice('count/'.length);
  const dot = rest.indexOf('.');
  return dot < 0 ? { group: '', resource: rest } : { group: rest.slice(dot + 1), resource: rest.slice(0, dot) };
}

/** The resources whose objects a quota's hard names charge (the core ones, and any `count/…`). */
export function chargedResources(names: readonly string[]): { group: string; resource: string }[] {
  const out = new Map<string, { group: string; resource: string }>();
  const consider = (group: string, resource: string): void => {
    if (evaluatorFor(group, resource).matchingResources(names).length > 0) out.set(`${resource}.${group}`, { group, resource });
  };
  for (const r of ['pods', 'services', 'persistentvolumeclaims', ...Object.keys(ALIASES)]) consider('', r);
  for (const n of names) {
    const counted = countedResource(n);
    if (counted) consider(counted.group, counted.resource);
  }
  return [...out.values()];
}
