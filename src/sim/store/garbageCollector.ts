import type { KubeObject } from '../../shared/k8s.ts';
import { mutableCopy } from './storedObject.ts';
import type { ResourceTable } from './mvccStore.ts';
import type { StoreOps } from './storeOps.ts';
import type { RequestContext } from './types.ts';

// The garbage collector's three propagation policies, run by the store right after the owner's
// delete (a real cluster runs them in kube-controller-manager, a little later).

/** Background: dependents whose owners are all gone are deleted; dangling refs to a gone owner are dropped. */
export function collectDependents(ops: StoreOps, ownerUid: string, ctx: RequestContext): void {
  for (const ref of ops.owners.dependentsOf(ownerUid)) {
    const cur = ref.table.current.get(ref.key);
    const info = ops.registry.storageInfo(ref.table.group, ref.table.resource);
    if (!cur || !info) continue;
    const owners = cur.object.metadata.ownerReferences ?? [];
    const live = owners.filter((o) => ops.owners.isLive(o.uid));
    const { namespace = '', name = '' } = cur.object.metadata;
    if (live.length === 0) ops.delete(info, namespace, name, { propagationPolicy: 'Background' }, ctx);
    else if (live.length < owners.length) {
      const next = mutableCopy(cur.object) as KubeObject;
      next.metadata.ownerReferences = live.map((o) => ({ ...o }));
      ops.commitUpdate(info, ref.table, ref.key, cur, next, ctx);
    }
  }
  ops.owners.forgetOwner(ownerUid);
}

/** A dependent written after its owners were all deleted: deleted in the background, if its owners are still all gone. */
export function collectDangling(ops: StoreOps, table: ResourceTable, key: string, ctx: RequestContext): void {
  const cur = table.current.get(key);
  const info = ops.registry.storageInfo(table.group, table.resource);
  if (!cur || !info || cur.object.metadata.deletionTimestamp || !ops.owners.ownersAllGone(cur.object)) return;
  ops.delete(info, cur.object.metadata.namespace ?? '', cur.object.metadata.name ?? '', { propagationPolicy: 'Background' }, ctx);
}

/**
 * Foreground, simplified: dependents go before the owner (the real GC also parks the owner behind
 * a foregroundDeletion finalizer meanwhile; here it all happens within the delete call). In a
 * dependency circle the walk comes back to an owner already deleting its dependents: that one is
 * left to its own delete, which goes on once the walk returns.
 */
export function deleteDependentsFirst(ops: StoreOps, ownerUid: string, ctx: RequestContext): void {
  const deletingFirst = new Set(ctx.deletingFirst).add(ownerUid);
  const within: RequestContext = { ...ctx, deletingFirst };
  for (const ref of ops.owners.dependentsOf(ownerUid)) {
    const cur = ref.table.current.get(ref.key);
    const info = ops.registry.storageInfo(ref.table.group, ref.table.resource);
    if (!cur || !info || deletingFirst.has(cur.object.metadata.uid ?? '')) continue;
    const others = (cur.object.metadata.ownerReferences ?? []).filter((o) => o.uid !== ownerUid && ops.owners.isLive(o.uid));
    if (others.length === 0) ops.delete(info, cur.object.metadata.namespace ?? '', cur.object.metadata.name ?? '', { propagationPolicy: 'Foreground' }, within);
  }
}

/** Orphan: dependents stay, without their reference to the owner. */
export function orphanDependents(ops: StoreOps, owner: Readonly<KubeObject>, ctx: RequestContext): void {
  const uid = owner.metadata.uid;
  if (!uid) return;
  for (const ref of ops.owners.dependentsOf(uid)) {
    const cur = ref.table.current.get(ref.key);
    const info = ops.registry.storageInfo(ref.table.group, ref.table.resource);
    if (!cur || !info) continue;
    const next = mutableCopy(cur.object) as KubeObject;
    next.metadata.ownerReferences = (next.metadata.ownerReferences ?? []).filter((o) => o.uid !== uid);
    if (next.metadata.ownerReferences.length === 0) delete next.metadata.ownerReferences;
    ops.commitUpdate(info, ref.table, ref.key, cur, next, ctx);
  }
}
