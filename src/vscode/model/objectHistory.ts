import type { KubeObject } from '../../shared/k8s.ts';

// Recent versions of each object an informer delivered, so "Compare with Previous Version" and the
// timeline's details can diff any event against the version before it. Bounded twice: versions per
// object, and objects overall (the oldest-touched object is forgotten first).

export type VersionChange = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface ObjectVersion {
  resourceVersion: string;
  object: Readonly<KubeObject>;
  change: VersionChange;
  at: number;
}

export class ObjectHistory {
  private readonly versions = new Map<string, ObjectVersion[]>();
  private readonly perObject: number;
  private readonly maxObjects: number;

  constructor(perObject = 10, maxObjects = 50_000) {
    this.perObject = Math.max(2, perObject);
    this.maxObjects = maxObjects;
  }

  record(key: string, version: ObjectVersion): void {
    let list = this.versions.get(key);
    if (list) {
      this.versions.delete(key); // re-insert: Map order is our recency order
      const last = list[list.length - 1];
      // A resync or an unchanged relist re-delivers the same version: keep one.
      if (last && last.resourceVersion === version.resourceVersion && last.change === version.change) {
        this.versions.set(key, list);
        return;
      }
    } else {
      list = [];
    }
    list.push(version);
    if (list.length > this.perObject) list.splice(0, list.length - this.perObject);
    this.versions.set(key, list);
    if (this.versions.size > this.maxObjects) {
      const oldest = this.versions.keys().next().value;
      if (oldest !== undefined) this.versions.delete(oldest);
    }
  }

  /** Oldest first. */
  list(key: string): readonly ObjectVersion[] {
    return this.versions.get(key) ?? [];
  }

  latest(key: string): ObjectVersion | undefined {
    const list = this.versions.get(key);
    return list?.[list.length - 1];
  }

  /** The version at `resourceVersion` and the one before it (either may be gone). */
  at(key: string, resourceVersion: string): { version?: ObjectVersion; previous?: ObjectVersion } {
    const list = this.versions.get(key) ?? [];
    for (let i = list.length - 1; i >= 0; i--) {
      const v = list[i] as ObjectVersion;
      if (v.resourceVersion === resourceVersion) return { version: v, previous: list[i - 1] };
    }
    return {};
  }

  /** The latest version and the one before it. */
  lastTwo(key: string): { version?: ObjectVersion; previous?: ObjectVersion } {
    const list = this.versions.get(key) ?? [];
    return { version: list[list.length - 1], previous: list[list.length - 2] };
  }

  clear(): void {
    this.versions.clear();
  }
}
