import type { KubeObject, WatchEventType } from '../../shared/k8s.ts';
import type { StoredObject } from './types.ts';
import { cloneJson } from '../../shared/cloneJson.ts';

// One immutable version of an object. It is frozen once at commit and shared by every list page,
// watch event and GET; its JSON is produced at most once.

export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** A copy that may be changed (the frozen original stays shared). Objects are plain JSON. */
export function mutableCopy<T>(value: T): T {
  return cloneJson(value);
}

export class Stored implements StoredObject {
  readonly object: Readonly<KubeObject>;
  readonly resourceVersion: number;
  private cachedJson: string | undefined;
  private versions: Map<string, Stored> | undefined;

  /** Takes ownership of `object` (freezes it). */
  constructor(object: KubeObject, resourceVersion: number, json?: string) {
    this.object = deepFreeze(object);
    this.resourceVersion = resourceVersion;
    this.cachedJson = json;
  }

  json(): string {
    return (this.cachedJson ??= JSON.stringify(this.object));
  }

  /**
   * `{"type":…,"object":…}`. Not cached: the concatenation is a cheap rope over the cached JSON,
   * and keeping flattened lines would double the memory of every stored version.
   */
  line(type: WatchEventType): string {
    return `{"type":"${type}","object":${this.json()}}`;
  }

  /** The same object with metadata.resourceVersion replaced (a tombstone carrying the delete's RV). */
  withResourceVersion(rv: number): Stored {
    const copy = mutableCopy(this.object) as KubeObject;
    copy.metadata.resourceVersion = String(rv);
    return new Stored(copy, rv);
  }

  /** The object as another served version of its resource sees it: only apiVersion differs (no conversion). */
  asApiVersion(apiVersion: string): Stored {
    if (this.object.apiVersion === apiVersion) return this;
    const versions = (this.versions ??= new Map());
    let v = versions.get(apiVersion);
    if (!v) {
      v = new Stored({ ...mutableCopy(this.object), apiVersion } as KubeObject, this.resourceVersion);
      versions.set(apiVersion, v);
    }
    return v;
  }
}

/** A StoredObject made on the fly (a Scale, a Status): not in the store, still JSON-cached. */
export function transientStored(object: KubeObject): Stored {
  const rv = Number(object.metadata?.resourceVersion ?? 0);
  return new Stored(object, Number.isFinite(rv) ? rv : 0);
}
