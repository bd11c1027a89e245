import type { KubeObject } from '../../shared/k8s.ts';
import { ZERO } from '../vocabulary/quantity.ts';
import { evaluatorFor, type QuotaOperation } from './evaluators.ts';
import { scopesOf } from './quotaScopes.ts';
import { add, exceeding, mask, prettyPrint, removeZeros, resourceList, subtractNonNegative, type ResourceList } from '../vocabulary/resourceList.ts';

// The ResourceQuota admission plugin's check of one create or update (k8s.io/apiserver's
// resourcequota CheckRequest): each quota of the namespace whose status.hard names a resource the
// object uses, and whose scopes it is in, must have its usage calculated, and its usage plus what
// the write adds must stay within status.hard. Every quota it charges has its status.used raised
// by the write's usage, before the object is stored; the quota controller later recounts.

export interface QuotaRequest {
  group: string;
  resource: string;
  operation: QuotaOperation;
  object: Readonly<KubeObject>;
  /** The stored object an update replaces. */
  old?: Readonly<KubeObject> | undefined;
  nowMs: number;
}

/** The write is refused: why, as the plugin words it after `<resource> "<name>" is forbidden: `. */
export class QuotaRefusal extends Error {}

/** A quota the write charges, and its status.used after it. */
export interface QuotaCharge {
  quota: Readonly<KubeObject>;
  used: ResourceList;
}

function statusOf(quota: Readonly<KubeObject>): { hard: ResourceList; used: ResourceList; hasUsed: boolean } {
  const status = (quota.status ?? {}) as { hard?: unknown; used?: unknown };
  return { hard: resourceList(status.hard), used: resourceList(status.used), hasUsed: typeof status.used === 'object' && status.used !== null };
}

/** The charges of an admitted write (none when no quota cares); throws QuotaRefusal when one refuses it. */
export function checkQuotas(quotas: readonly Readonly<KubeObject>[], request: QuotaRequest): QuotaCharge[] {
  const evaluator = evaluatorFor(request.group, request.resource);
  if (!evaluator.handles(request.operation)) return [];
  const interesting: Readonly<KubeObject>[] = [];
  for (const quota of quotas) {
    const { hard, used } = statusOf(quota);
    const restricted = evaluator.matchingResources([...hard.keys()]);
    if (restricted.length === 0 || !scopesOf(quota).every((s) => evaluator.matchesScope(s, request.object))) continue;
    const name = quota.metadata.name ?? '';
    const unmet = evaluator.constraints(restricted, request.object);
    if (unmet) throw new QuotaRefusal(`failed quota: ${name}: ${unmet}`);
    if (restricted.some((r) => !used.has(r))) throw new QuotaRefusal(`status unknown for quota: ${name}, resources: ${[...restricted].sort().join(',')}`);
    interesting.push(quota);
  }
  let delta = evaluator.usage(request.object, request.nowMs);
  const negative = [...delta].filter(([, q]) => q.compare(ZERO) < 0).map(([k]) => k);
  if (negative.length) throw new QuotaRefusal(`quota usage is negative for resource(s): ${negative.sort().join(',')}`);
  if (request.operation === 'UPDATE' && request.old?.metadata.resourceVersion) delta = subtractNonNegative(delta, evaluator.usage(request.old, request.nowMs));
  delta = removeZeros(delta);
  if (delta.size === 0) return [];
  const charges: QuotaCharge[] = [];
  for (const quota of interesting) {
    const { hard, used } = statusOf(quota);
    const requested = mask(delta, hard.keys());
    const next = add(used, requested);
    const over = exceeding(mask(next, requested.keys()), hard);
    if (over.length) {
      throw new QuotaRefusal(`exceeded quota: ${quota.metadata.name ?? ''}, requested: ${prettyPrint(mask(requested, over))}, used: ${prettyPrint(mask(used, over))}, limited: ${prettyPrint(mask(hard, over))}`);
    }
    if (requested.size) charges.push({ quota, used: next });
  }
  return charges;
}
