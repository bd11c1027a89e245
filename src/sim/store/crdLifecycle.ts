import type { KubeObject } from '../../shared/k8s.ts';
import { crdResources, crdStatus, validateCrd } from '../resources/crd.ts';
import { mutableCopy } from './storedObject.ts';
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
