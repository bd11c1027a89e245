import type { KubeObject } from '../../shared/k8s.ts';
import { forbidden } from '../../shared/apiErrors.ts';
import { checkQuotas, QuotaRefusal, toJson, type QuotaCharge, type QuotaOperation } from '../quota/index.ts';
import type { ResourceInfo } from '../vocabulary/resourceInfo.ts';
import { mutableCopy } from './storedObject.ts';
import type { StoreOps } from './storeOps.ts';
import type { RequestContext } from './types.ts';

// kube-apiserver's ResourceQuota admission plugin, on every create and update of a namespaced
// object: a write that would take a quota of its namespace over status.hard is refused (403
// `exceeded quota: …`), and one admitted raises the status.used of each quota it charges before
// the object is stored, so the next write is weighed with it. A quota whose usage was never
// calculated refuses what it limits (`status unknown for quota`), as without a quota controller.

const QUOTAS = { group: '', resource: 'resourcequotas' };

/** The quota's status written by the API server itself, reported as caused by the request. */
function apiServerContext(cause: RequestContext): RequestContext {
  const first = cause.cause ?? cause;
  return cause.client ? { client: cause.client, fieldManager: 'kube-apiserver', cause: first } : { fieldManager: 'kube-apiserver', cause: first };
}

export function admitQuota(ops: StoreOps, info: ResourceInfo, operation: QuotaOperation, object: Readonly<KubeObject>, old: Readonly<KubeObject> | undefined, nowMs: number, ctx: RequestContext): void {
  const namespace = object.metadata.namespace ?? '';
  if (!info.namespaced || !namespace) return;
  const table = ops.mvcc.table(QUOTAS.group, QUOTAS.resource);
  const quotas = [...table.keys.range(`${namespace}/`, '')].map((k) => table.current.get(k)?.object).filter((q): q is Readonly<KubeObject> => q !== undefined);
  if (quotas.length === 0) return;
  let charges: QuotaCharge[];
  try {
    charges = checkQuotas(quotas, { group: info.group, resource: info.resource, operation, object, old, nowMs });
  } catch (err) {
    if (err instanceof QuotaRefusal) throw forbidden(info.group, info.resource, object.metadata.name ?? '', err.message);
    throw err;
  }
  if (ctx.dryRun || charges.length === 0) return;
  const quotaInfo = ops.registry.storageInfo(QUOTAS.group, QUOTAS.resource);
  if (!quotaInfo) return;
  for (const { quota, used } of charges) {
    const key = `${namespace}/${quota.metadata.name ?? ''}`;
    const current = table.current.get(key);
    if (!current) continue;
    const next = mutableCopy(current.object) as KubeObject;
    next.status = { ...((next.status ?? {}) as Record<string, unknown>), used: toJson(used) };
    ops.commitUpdate(quotaInfo, table, key, current, next, apiServerContext(ctx), 'status');
  }
}
