import type { KubeObject } from '../../shared/k8s.ts';
import type { StaleRead, WriteVerb } from '../../controllerProtocol/index.ts';
import { compareResourceVersions } from './resourceVersion.ts';

// What this controller process wrote, object by object, until its informers deliver it: a read
// from the cache meanwhile that returns an older version (or the object still there after the
// process deleted it, or missing after it created it) is a stale read. A controller acting on it
// acts on state older than its own last write (controller-runtime #1464, #1622). Entries go once the
// informer has delivered the written version, so memory stays bounded by the writes in flight.

const DECIMAL = /^\d+$/;

interface Written {
  resourceVersion: string | undefined;
  verb: WriteVerb;
  deleted: boolean;
  bySeq: number;
}

export class WrittenVersions {
  private readonly byObject = new Map<string, Written>();

  /** A successful write of this process: the object as the server answered (undefined for a delete without body). */
  wrote(kind: string, key: string, verb: WriteVerb, answered: KubeObject | undefined, bySeq: number): void {
    const deleted = verb === 'delete';
    const resourceVersion = answered?.metadata?.resourceVersion;
    if (!deleted && resourceVersion === undefined) return;
    const id = `${kind} ${key}`;
    const known = this.byObject.get(id);
    if (known && !known.deleted && !deleted && compareResourceVersions(known.resourceVersion ?? '', resourceVersion ?? '') >= 0) return;
    this.byObject.set(id, { resourceVersion, verb, deleted, bySeq });
  }

  /** The informer delivered this version (or the deletion): a written version at or below it is no longer pending. */
  observed(kind: string, key: string, resourceVersion: string, deleted: boolean): void {
    const id = `${kind} ${key}`;
    const w = this.byObject.get(id);
    if (!w) return;
    if (w.deleted ? deleted : compareResourceVersions(resourceVersion, w.resourceVersion ?? '') >= 0) this.byObject.delete(id);
  }

  /** A stale read, if reading `found` for this object is one. */
  check(apiVersion: string, kind: string, namespace: string | undefined, name: string, found: KubeObject | undefined): StaleRead | undefined {
    const w = this.byObject.get(`${kind} ${namespace ? `${namespace}/` : ''}${name}`);
    if (!w) return undefined;
    const base = { apiVersion, kind, ...(namespace ? { namespace } : {}), name, verb: w.verb, wroteBy: w.bySeq };
    if (w.deleted) {
      if (!found || found.metadata.deletionTimestamp) return undefined;
      return { ...base, readResourceVersion: found.metadata.resourceVersion };
    }
    if (!found) return { ...base, wroteResourceVersion: w.resourceVersion, notFound: true };
    const read = found.metadata.resourceVersion ?? '';
    // resourceVersions are opaque: only decimal revisions (etcd's, the simulated cluster's) say which is older.
    if (!DECIMAL.test(read) || !DECIMAL.test(w.resourceVersion ?? '') || compareResourceVersions(read, w.resourceVersion ?? '') >= 0) return undefined;
    return { ...base, readResourceVersion: read, wroteResourceVersion: w.resourceVersion };
  }
}
