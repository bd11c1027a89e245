import type { KubeObject } from '../../shared/k8s.ts';
import { crdResources, crdStatus, validateCrd } from '../resources/crd.ts';
import { mutableCopy, type Stored } from './storedObject.ts';
import type { ResourceInfo } from '../vocabulary/resourceInfo.ts';
import { jsonEqual } from '../vocabulary/jsonEqual.ts';
import { timestamp } from '../vocabulary/objectMeta.ts';
import { followUpContext } from './writeContext.ts';
import type { HistoryEvent } from './history.ts';
import type { ResourceTable } from './mvccStore.ts';
import type { StoreOps } from './storeOps.ts';
import type { RequestContext } from './types.ts';

// CustomResourceDefinitions taking effect: a stored CRD serves its resource (every served
// version), an updated one re-serves it, a deleted one takes its objects and watches with it.

/** A CRD going away takes its objects with it (the real customresourcecleanup finalizer's job). */
export function deleteCustomResources(ops: StoreOps, crd: Readonly<KubeObject>, ctx: RequestContext): void {
  const first = crdResources(crd)[0];
  if (!first) return;
  const table = ops.mvcc.table(first.group, first.resource);
  for (const key of [...table.keys.range('', '')]) ops.commit(table, key, undefined, ctx);
}

export function followCrd(ops: StoreOps, event: HistoryEvent, onUnserved: (table: ResourceTable) => void): void {
  const crd = event.object.object;
  const served = validateCrd(crd).length === 0 ? crdResources(crd) : [];
  const first = served[0];
  if (!first) return;
  const existing = ops.registry.storageInfo(first.group, first.resource);
  if (existing && existing.source === 'builtin') return;
  if (event.type === 'DELETED') {
    ops.registry.unserve(first.group, first.resource);
    const table = ops.mvcc.dropTable(first.group, first.resource);
    if (table) onUnserved(table);
  } else if (event.type === 'ADDED' || !jsonEqual(event.prev?.object.spec, crd.spec)) {
    // A status write (the CRD established, its names accepted) serves nothing new.
    ops.registry.serve(served);
  }
}

/**
 * A new CRD's names accepted and the CRD Established, as kube-apiserver's naming and establishing
 * controllers write its status right after the create (whose answer has neither yet).
 */
export function establishCrd(ops: StoreOps, table: ResourceTable, key: string, now: number, ctx: RequestContext): void {
  const current = table.current.get(key);
  if (!current || current.object.metadata.deletionTimestamp) return;
  const next = mutableCopy(current.object) as KubeObject;
  (next as Record<string, unknown>).status = crdStatus(next, timestamp(now));
  ops.commit(table, key, next, followUpContext(ctx));
}

const CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

/** SetCRDCondition: the condition of that type replaced (its transition time kept when its status did not change), else added. */
function withCondition(status: unknown, condition: Record<string, string>): Record<string, unknown> {
  const s = { ...((status ?? {}) as Record<string, unknown>) };
  const conditions = Array.isArray(s['conditions']) ? [...(s['conditions'] as Record<string, string>[])] : [];
  const at = conditions.findIndex((c) => c['type'] === condition['type']);
  if (at < 0) conditions.push(condition);
  else conditions[at] = { ...condition, lastTransitionTime: conditions[at]!['status'] === condition['status'] ? conditions[at]!['lastTransitionTime']! : condition['lastTransitionTime']! };
  s['conditions'] = conditions;
  return s;
}

/**
 * A CRD's first delete, as its registry answers it whatever the propagation policy: marked for
 * deletion behind the customresourcecleanup finalizer, Terminating. Its objects go next
 * (finishCrdCleanup); a later delete changes nothing.
 */
export function markCrdTerminating(ops: StoreOps, table: ResourceTable, key: string, current: Stored, now: number, ctx: RequestContext): Stored {
  if (current.object.metadata.deletionTimestamp) return current;
  const next = mutableCopy(current.object) as KubeObject;
  next.metadata.deletionTimestamp = timestamp(now);
  if (!next.metadata.finalizers?.includes(CLEANUP_FINALIZER)) next.metadata.finalizers = [...(next.metadata.finalizers ?? []), CLEANUP_FINALIZER];
  next['status'] = withCondition(next['status'], {
    type: 'Terminating', status: 'True', lastTransitionTime: timestamp(now), reason: 'InstanceDeletionPending', message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
  });
  return ops.commit(table, key, next, ctx).object;
}

/**
 * The CRD finalizer controller: the CRD said to be deleting its objects, the custom resources
 * deleted, then its finalizer removed with the deletion said complete (the CRD goes with its last
 * finalizer; the DELETED event shows it as last stored, deleting).
 */
export function finishCrdCleanup(ops: StoreOps, info: ResourceInfo, table: ResourceTable, key: string, now: number, ctx: RequestContext): void {
  const marked = table.current.get(key);
  if (!marked?.object.metadata.finalizers?.includes(CLEANUP_FINALIZER)) return;
  const inProgress = mutableCopy(marked.object) as KubeObject;
  inProgress['status'] = withCondition(inProgress['status'], { type: 'Terminating', status: 'True', lastTransitionTime: timestamp(now), reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' });
  const current = ops.commitUpdate(info, table, key, marked, inProgress, ctx, 'status');
  deleteCustomResources(ops, current.object, ctx);
  const next = mutableCopy(current.object) as KubeObject;
  next['status'] = withCondition(next['status'], { type: 'Terminating', status: 'False', lastTransitionTime: timestamp(now), reason: 'InstanceDeletionCompleted', message: 'removed all instances' });
  next.metadata.finalizers = (next.metadata.finalizers ?? []).filter((f) => f !== CLEANUP_FINALIZER);
  if (next.metadata.finalizers.length === 0) delete next.metadata.finalizers;
  ops.commitUpdate(info, table, key, current, next, ctx, 'status');
}
