import type { KubeObject } from '../../shared/k8s.ts';
import { mutableCopy } from './storedObject.ts';
import type { ResourceTable } from './mvccStore.ts';
import type { StoreOps } from './storeOps.ts';
import type { RequestContext } from './types.ts';

// The garbage collector's three propagation policies, run by the store right after the owner's
// delete (a real cluster runs them in kube-controller-manager, a little later). A Foreground
// delete leaves the owner marked with the foregroundDeletion finalizer until the dependents that
// block it are gone, as kube-apiserver and the garbage collector do.

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

const FOREGROUND = 'foregroundDeletion';

function isDeletingDependents(obj: Readonly<KubeObject> | undefined): boolean {
  return !!obj?.metadata.deletionTimestamp && (obj.metadata.finalizers ?? []).includes(FOREGROUND);
}

/**
 * Foreground: the owner, already marked with the foregroundDeletion finalizer, has its dependents
 * deleted — those with dependents of their own in the foreground too, the others in the
 * background. A dependent another live owner still holds stays. In a dependency circle the walk
 * comes back to an owner already deleting its dependents: that one is left alone.
 */
export function deleteDependentsFirst(ops: StoreOps, ownerUid: string, ctx: RequestContext): void {
  const deletingFirst = new Set(ctx.deletingFirst).add(ownerUid);
  const within: RequestContext = { ...ctx, deletingFirst };
  for (const ref of ops.owners.dependentsOf(ownerUid)) {
    const cur = ref.table.current.get(ref.key);
    const info = ops.registry.storageInfo(ref.table.group, ref.table.resource);
    const uid = cur?.object.metadata.uid ?? '';
    if (!cur || !info || deletingFirst.has(uid)) continue;
    const others = (cur.object.metadata.ownerReferences ?? []).filter((o) => o.uid !== ownerUid && ops.owners.isLive(o.uid));
    if (others.length) continue;
    const policy = ops.owners.dependentsOf(uid).length ? 'Foreground' : 'Background';
    ops.delete(info, cur.object.metadata.namespace ?? '', cur.object.metadata.name ?? '', { propagationPolicy: policy }, within);
  }
}

/**
 * Whether a dependent keeps its owner waiting: it is still there and blocks its owner's deletion,
 * unless another owner not being deleted holds it, or it waits itself on a dependent that waits
 * (a circle the garbage collector breaks by unblocking its references).
 */
function blocksOwner(ops: StoreOps, dependent: Readonly<KubeObject>, ownerUid: string): boolean {
  const refs = dependent.metadata.ownerReferences ?? [];
  if (!refs.some((o) => o.uid === ownerUid && o.blockOwnerDeletion === true)) return false;
  const solid = refs.some((o) => {
    if (o.uid === ownerUid) return false;
    const r = ops.owners.refOf(o.uid);
    const owner = r?.table.current.get(r.key)?.object;
    return owner !== undefined && !owner.metadata.deletionTimestamp;
  });
  if (solid) return false;
  if (!isDeletingDependents(dependent)) return true;
  return !ops.owners.dependentsOf(dependent.metadata.uid ?? '').some((r) => isDeletingDependents(r.table.current.get(r.key)?.object));
}

/** Removes an owner's foregroundDeletion finalizer once no dependent blocks it (the owner goes if it was the last). */
export function finishForegroundDeletion(ops: StoreOps, ownerUid: string, ctx: RequestContext): void {
  const ref = ops.owners.refOf(ownerUid);
  const cur = ref?.table.current.get(ref.key);
  const info = ref && ops.registry.storageInfo(ref.table.group, ref.table.resource);
  if (!ref || !cur || !info || !isDeletingDependents(cur.object)) return;
  for (const d of ops.owners.dependentsOf(ownerUid)) {
    const dependent = d.table.current.get(d.key)?.object;
    if (dependent && blocksOwner(ops, dependent, ownerUid)) return;
  }
  const next = mutableCopy(cur.object) as KubeObject;
  next.metadata.finalizers = (next.metadata.finalizers ?? []).filter((f) => f !== FOREGROUND);
  if (next.metadata.finalizers.length === 0) delete next.metadata.finalizers;
  ops.commitUpdate(info, ref.table, ref.key, cur, next, ctx);
}

/** The owners a write may have let go on: those waiting in the foreground that the object names (or named). */
export function ownersWaitingOn(ops: StoreOps, obj: Readonly<KubeObject>, prev: Readonly<KubeObject> | undefined): string[] {
  const uids = new Set([...(obj.metadata.ownerReferences ?? []), ...(prev?.metadata.ownerReferences ?? [])].map((o) => o.uid));
  return [...uids].filter((uid) => {
    const r = ops.owners.refOf(uid);
    return isDeletingDependents(r?.table.current.get(r.key)?.object);
  });
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
