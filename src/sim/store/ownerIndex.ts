import type { KubeObject } from '../../shared/k8s.ts';
import type { HistoryEvent } from './history.ts';
import type { ResourceTable } from './mvccStore.ts';

// Who owns whom, for garbage collection: live uids, and per owner uid its dependents. Kept up to
// date from every commit so a delete finds its dependents without scanning the store.

export interface ObjectRef {
  table: ResourceTable;
  key: string;
}

/**
 * Deleted uids remembered, ~8 MB: enough for any owner whose stale view a controller still acts on;
 * a sim that deletes millions of objects keeps no more.
 */
const MAX_GONE = 100_000;

export class OwnerIndex {
  private readonly live = new Map<string, ObjectRef>();
  private readonly dependents = new Map<string, Map<string, ObjectRef>>();
  /**
   * Uids of objects this cluster had and deleted, the latest MAX_GONE of them (a Set keeps them in
   * the order they went): an owner reference to one is dangling.
   */
  private readonly gone = new Set<string>();

  observe(table: ResourceTable, event: HistoryEvent): void {
    const ref: ObjectRef = { table, key: event.key };
    const id = refId(ref);
    if (event.prev) this.unlink(event.prev.object, id);
    const obj = event.object.object;
    if (event.type === 'DELETED') {
      if (obj.metadata.uid) {
        this.live.delete(obj.metadata.uid);
        this.gone.add(obj.metadata.uid);
        if (this.gone.size > MAX_GONE) this.gone.delete(this.gone.values().next().value as string);
      }
      return;
    }
    if (obj.metadata.uid) this.live.set(obj.metadata.uid, ref);
    for (const o of obj.metadata.ownerReferences ?? []) {
      let deps = this.dependents.get(o.uid);
      if (!deps) this.dependents.set(o.uid, (deps = new Map()));
      deps.set(id, ref);
    }
  }

  isLive(uid: string): boolean {
    return this.live.has(uid);
  }

  /** Where a live object is stored, by its uid. */
  refOf(uid: string): ObjectRef | undefined {
    return this.live.get(uid);
  }

  /** Whether every owner the object names was deleted already (it was written with dangling references only). */
  ownersAllGone(obj: Readonly<KubeObject>): boolean {
    const owners = obj.metadata.ownerReferences ?? [];
    return owners.length > 0 && owners.every((o) => this.gone.has(o.uid) && !this.live.has(o.uid));
  }

  dependentsOf(uid: string): ObjectRef[] {
    return [...(this.dependents.get(uid)?.values() ?? [])];
  }

  /** Drops the owner's dependents entry once nothing references it any more. */
  forgetOwner(uid: string): void {
    if (this.dependents.get(uid)?.size === 0) this.dependents.delete(uid);
  }

  clear(): void {
    this.live.clear();
    this.dependents.clear();
    this.gone.clear();
  }

  private unlink(obj: Readonly<KubeObject>, id: string): void {
    for (const o of obj.metadata.ownerReferences ?? []) {
      const deps = this.dependents.get(o.uid);
      deps?.delete(id);
      if (deps?.size === 0) this.dependents.delete(o.uid);
    }
  }
}

const tableIds = new WeakMap<ResourceTable, string>();
function refId(ref: ObjectRef): string {
  let t = tableIds.get(ref.table);
  if (!t) tableIds.set(ref.table, (t = `${ref.table.resource}.${ref.table.group}`));
  return `${t}\n${ref.key}`;
}
