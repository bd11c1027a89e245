import type { KubeObject } from '../shared/k8s.ts';
import type { CacheDelta } from '../controllerProtocol/index.ts';
import { toLabelSelector } from '../shared/labelSelector.ts';

// The parent's copy of the controller's caches, with history: every forwarded delta is kept, so the
// cache "as it was" when reconcile #N started (its cacheSeq) can be read back for stepBack and
// evaluate. Objects are immutable once received, so versions share nothing mutable.

interface Version {
  seq: number;
  /** As the delta spelled it (the map is keyed by its lower case). */
  kind: string;
  resourceVersion: string;
  /** undefined: deleted at this seq. */
  object: KubeObject | undefined;
}

/** One kept change of one object: `object` after it (for DELETED, its last state), `previous` before. */
export interface CacheChange {
  seq: number;
  kind: string;
  key: string;
  resourceVersion: string;
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: KubeObject | undefined;
  previous: KubeObject | undefined;
}

export interface CacheView {
  get(kind: string, namespace: string, name: string): KubeObject | undefined;
  list(kind: string, options?: { namespace?: string; labelSelector?: string | Record<string, string> }): KubeObject[];
  kinds(): string[];
}

export class CacheHistory {
  /** kind (lower case) → object key → versions in seq order. */
  private readonly kindsByName = new Map<string, Map<string, Version[]>>();
  private lastSeq = 0;
  private readonly maxVersionsPerKey: number;

  constructor(maxVersionsPerKey = 64) {
    this.maxVersionsPerKey = maxVersionsPerKey;
  }

  get seq(): number {
    return this.lastSeq;
  }

  apply(delta: CacheDelta): void {
    this.lastSeq = Math.max(this.lastSeq, delta.seq);
    const kind = delta.kind.toLowerCase();
    let byKey = this.kindsByName.get(kind);
    if (!byKey) this.kindsByName.set(kind, (byKey = new Map()));
    let versions = byKey.get(delta.key);
    if (!versions) byKey.set(delta.key, (versions = []));
    versions.push({ seq: delta.seq, kind: delta.kind, resourceVersion: delta.resourceVersion, object: delta.type === 'DELETED' ? undefined : delta.object });
    // Old versions fall off: stepping back further than this shows the oldest kept version.
    if (versions.length > this.maxVersionsPerKey) versions.splice(0, versions.length - this.maxVersionsPerKey);
  }

  /**
   * Every kept change of every key, each with the version before it (undefined: none kept, or it
   * did not exist): a data breakpoint set late finds the earlier changes of its field here.
   */
  *changes(): Generator<CacheChange> {
    for (const byKey of this.kindsByName.values()) {
      for (const [key, versions] of byKey) {
        // A key that lost old versions has no true "before" for its oldest kept one.
        for (let i = versions.length >= this.maxVersionsPerKey ? 1 : 0; i < versions.length; i++) {
          const v = versions[i] as Version;
          const previous = versions[i - 1]?.object;
          const type = v.object === undefined ? 'DELETED' : previous === undefined ? 'ADDED' : 'MODIFIED';
          yield { seq: v.seq, kind: v.kind, key, resourceVersion: v.resourceVersion, type, object: v.object ?? previous, previous };
        }
      }
    }
  }

  /** The cache as of `seq` (inclusive). */
  at(seq: number = Number.POSITIVE_INFINITY): CacheView {
    const pick = (versions: Version[]): KubeObject | undefined => {
      for (let i = versions.length - 1; i >= 0; i--) {
        const v = versions[i] as Version;
        if (v.seq <= seq) return v.object;
      }
      return undefined;
    };
    return {
      get: (kind, namespace, name) => {
        const versions = this.kindsByName.get(kind.toLowerCase())?.get(namespace ? `${namespace}/${name}` : name);
        return versions ? pick(versions) : undefined;
      },
      list: (kind, options = {}) => {
        const out: KubeObject[] = [];
        const selector = toLabelSelector(options.labelSelector);
        for (const versions of this.kindsByName.get(kind.toLowerCase())?.values() ?? []) {
          const obj = pick(versions);
          if (!obj) continue;
          if (options.namespace && obj.metadata.namespace !== options.namespace) continue;
          if (!selector.matches(obj.metadata.labels)) continue;
          out.push(obj);
        }
        return out;
      },
      kinds: () => [...this.kindsByName.keys()],
    };
  }
}
