import type { KubeObject } from '../../shared/k8s.ts';
import { forbidden } from '../../shared/apiErrors.ts';
import { mutableCopy } from './storedObject.ts';
import { NAMESPACES, type StoreOps } from './storeOps.ts';
import type { DeleteOptions, RequestContext } from './types.ts';

// A real cluster's namespace controller empties a Terminating namespace and then finalizes it (a
// cluster without kube-controller-manager leaves it Terminating forever). The sim has no
// controller manager, so the store does this itself, right after the delete.

export function emptyNamespace(ops: StoreOps, namespace: string, ctx: RequestContext): void {
  for (const table of ops.mvcc.allTables()) {
    const info = ops.registry.storageInfo(table.group, table.resource);
    if (!info?.namespaced) continue;
    for (const key of [...table.keys.range(`${namespace}/`, '')]) {
      const cur = table.current.get(key);
      if (cur && !cur.object.metadata.deletionTimestamp) ops.delete(info, namespace, cur.object.metadata.name ?? '', { propagationPolicy: 'Background' }, ctx);
    }
  }
  finishNamespaceIfEmpty(ops, namespace, ctx);
}

/** Once nothing is left in a Terminating namespace: its `kubernetes` finalizer is done; with no other finalizers it goes. */
export function finishNamespaceIfEmpty(ops: StoreOps, namespace: string, ctx: RequestContext): void {
  const nsTable = ops.mvcc.table(NAMESPACES.group, NAMESPACES.resource);
  const ns = nsTable.current.get(namespace);
  if (!ns?.object.metadata.deletionTimestamp) return;
  for (const table of ops.mvcc.allTables()) {
    if (table === nsTable) continue;
    if (!table.keys.range(`${namespace}/`, '').next().done) return;
  }
  if (ns.object.metadata.finalizers?.length) {
    const spec = (ns.object as { spec?: { finalizers?: string[] } }).spec;
    if (spec?.finalizers?.length) {
      const next = mutableCopy(ns.object) as KubeObject;
      (next as { spec?: unknown }).spec = { ...spec, finalizers: [] };
      ops.commit(nsTable, namespace, next, ctx);
    }
    return;
  }
  ops.commit(nsTable, namespace, undefined, ctx);
}

/**
 * The API server's own part, with or without a namespace controller: a Terminating namespace whose
 * finalizers (spec's, as `namespaces/finalize` clears them, and metadata's) are all gone is deleted
 * by the update that cleared the last one (the namespace registry's ShouldDeleteDuringUpdate).
 */
export function deleteIfFinalized(ops: StoreOps, namespace: string, ctx: RequestContext): void {
  const nsTable = ops.mvcc.table(NAMESPACES.group, NAMESPACES.resource);
  const ns = nsTable.current.get(namespace);
  if (!ns?.object.metadata.deletionTimestamp || ns.object.metadata.finalizers?.length) return;
  if ((ns.object as { spec?: { finalizers?: string[] } }).spec?.finalizers?.length) return;
  ops.commit(nsTable, namespace, undefined, ctx);
}

/** Namespaces the API server's NamespaceLifecycle admission never lets go. */
export const IMMORTAL_NAMESPACES: ReadonlySet<string> = new Set(['default', 'kube-system', 'kube-public']);

/** Refuses the deletion of an immortal namespace, as admission does: before anything else, dry run or not. */
export function refuseImmortalNamespaceDeletion(name: string): void {
  if (IMMORTAL_NAMESPACES.has(name)) throw forbidden(NAMESPACES.group, NAMESPACES.resource, name, 'this namespace may not be deleted');
}

const ORPHAN = 'orphan';
const FOREGROUND = 'foregroundDeletion';

/**
 * The garbage collector's finalizers a namespace's first delete leaves on it, as the namespace
 * registry decides them (shouldHaveOrphanFinalizer, shouldHaveDeleteDependentsFinalizer): a
 * propagation policy puts its own and takes the other off; none keeps what was there.
 */
export function namespaceFinalizers(current: readonly string[] | undefined, policy: DeleteOptions['propagationPolicy']): string[] | undefined {
  if (policy === undefined) return current ? [...current] : undefined;
  const kept = (current ?? []).filter((f) => f !== ORPHAN && f !== FOREGROUND);
  if (policy === 'Orphan') kept.push(ORPHAN);
  if (policy === 'Foreground') kept.push(FOREGROUND);
  return kept.length ? kept : undefined;
}

/** The garbage collector done with a namespace whose dependents were orphaned: its `orphan` finalizer goes. */
export function releaseOrphanFinalizer(ops: StoreOps, namespace: string, ctx: RequestContext): void {
  const nsTable = ops.mvcc.table(NAMESPACES.group, NAMESPACES.resource);
  const ns = nsTable.current.get(namespace);
  const info = ops.registry.storageInfo(NAMESPACES.group, NAMESPACES.resource);
  if (!ns || !info || !ns.object.metadata.finalizers?.includes(ORPHAN)) return;
  const next = mutableCopy(ns.object) as KubeObject;
  next.metadata.finalizers = (next.metadata.finalizers ?? []).filter((f) => f !== ORPHAN);
  if (next.metadata.finalizers.length === 0) delete next.metadata.finalizers;
  ops.commitUpdate(info, nsTable, namespace, ns, next, ctx);
}
