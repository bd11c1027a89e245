import type { KubeObject } from '../shared/k8s.ts';
import type { DeepReadonly } from './readonly.ts';

// Long string values that many cached objects repeat, kept once. Real clusters repeat them a lot:
// kube-root-ca.crt's CA bundle in every namespace, Helm-rendered configuration, the
// last-applied-configuration annotation of every replica. JSON.parse gives each object its own
// copy; the cache swaps it for the one in this table, so a ConfigMap's payload costs its bytes
// once, not once per object. Values are counted: the last object that holds one takes it out of
// the table when it is replaced or deleted, so the table never grows with churn.
//
// Only the cache's own objects are touched, and only by putting an equal string in place of
// another: readers see ordinary objects. Strings are immutable, so sharing one cannot leak a
// change from one object into another.

/** Shorter values are left alone: a table entry would cost about what the value does. */
export const SHARED_VALUE_MIN_LENGTH = 64;

/**
 * Values whose fingerprints collide are chained; past this many, a new value with that fingerprint
 * is left unshared, so that no lookup ever compares more strings than this.
 */
const MAX_CHAIN = 8;

class Entry {
  readonly value: string;
  refs = 1;
  next: Entry | undefined;

  constructor(value: string, next: Entry | undefined) {
    this.value = value;
    this.next = next;
  }
}

/**
 * A cheap stand-in for the string's hash: its length, 8 characters spread over it and its last 4
 * (where a generation, an index or a hash suffix usually differs). A Map keyed by the string itself
 * would hash every character of every fresh value (~1 µs for a 620-character value, more than
 * JSON.parse spends on the whole object); a collision only costs a comparison. One plain loop:
 * unrolled, each charCodeAt compiles to a large graph (TurboFan took 5× longer).
 */
function fingerprint(v: string): number {
  const n = v.length;
  const step = n >>> 3;
  let h = Math.imul(n, 0x9e3779b1);
  for (let k = 0; k < 12; k++) h = Math.imul(h ^ v.charCodeAt(k < 8 ? (step >>> 1) + k * step : n - 12 + k), 0x85ebca6b);
  // A small integer: V8 hashes those without touching the heap.
  return (h ^ (h >>> 15)) & 0x3fffffff;
}

/**
 * Calls `visit` with each long string value in `obj`'s data, binaryData and metadata.annotations,
 * and its fingerprint; a string `visit` returns is put in the value's place. Records frozen by an
 * in-process backend (which may share its own objects) keep their values.
 */
function eachLongValue(obj: unknown, visit: (value: string, fingerprint: number) => string | undefined): void {
  const o = obj as { data?: unknown; binaryData?: unknown; metadata?: { annotations?: unknown } } | null;
  if (typeof o !== 'object' || o === null) return;
  // One loop over the three records, not three calls: every optimized caller inlines what it
  // calls, and three copies made the cache's update the costliest function to compile.
  for (let i = 0; i < 3; i++) {
    const record = i === 0 ? o.data : i === 1 ? o.binaryData : o.metadata?.annotations;
    if (typeof record !== 'object' || record === null || Object.isFrozen(record)) continue;
    const values = record as Record<string, unknown>;
    for (const k in values) {
      const v = values[k];
      if (typeof v !== 'string' || v.length < SHARED_VALUE_MIN_LENGTH) continue;
      const swap = visit(v, fingerprint(v));
      if (swap !== undefined) values[k] = swap;
    }
  }
}

export interface SharedValuesStats {
  /** Distinct values in the table. */
  values: number;
  /** Places in cached objects that hold one of them. */
  references: number;
  /** Characters the table holds (each value once). */
  chars: number;
}

/** What one cached object holds from the table: one value (the usual case), or several. */
export type Holding = Entry | Entry[];

/**
 * Within one list, a long value that its items repeat is made one string as they are decoded. The
 * list's items are all alive until the list ends, so without this every item's copy would be
 * promoted to the old generation with it, then dropped there when the cache swaps it for the
 * table's: ~30 MB of old garbage at 50k ConfigMaps sharing one payload. Made one here, the copies
 * die young, and the cache finds the string it already holds. Lives for one list: it holds
 * nothing the list's items do not.
 */
export class RepeatedValues {
  private readonly seen = new Map<number, string>();
  // Equal strings compare by content; returning the first puts that copy in place of this one. A
  // different value with the same fingerprint stays as it is: the cache's table sorts it out.
  private readonly visit = (value: string, fingerprint: number): string | undefined => {
    const first = this.seen.get(fingerprint);
    if (first === undefined) this.seen.set(fingerprint, value);
    return first === value ? first : undefined;
  };

  /** Puts, in `obj`, the first copy seen of each long value in place of a later equal one. */
  share<T>(obj: T): T {
    eachLongValue(obj, this.visit);
    return obj;
  }
}

export class SharedValues {
  private readonly table = new Map<number, Entry>();
  /** The entries the object being retained took so far. */
  private taken: Holding | undefined;

  /**
   * Swaps the long values of `obj` (data, binaryData, metadata.annotations) for the table's,
   * counting each; returns what it took, for `release` once the object leaves the cache. The
   * owner keeps that rather than reading the object again: by then the object is cold in memory
   * (walking it costs more cache misses than everything else an event does here), and a reader
   * may have broken the read-only contract and changed it.
   */
  retain(obj: DeepReadonly<KubeObject>): Holding | undefined {
    this.taken = undefined;
    eachLongValue(obj, this.take);
    const taken = this.taken;
    this.taken = undefined;
    return taken;
  }

  /** Gives back what `retain` took: a value no cached object holds any more leaves the table. */
  release(holding: Holding): void {
    if (holding instanceof Entry) this.unref(holding);
    else for (let i = 0; i < holding.length; i++) this.unref(holding[i]!);
  }

  stats(): SharedValuesStats {
    let values = 0;
    let references = 0;
    let chars = 0;
    for (const head of this.table.values()) {
      for (let e: Entry | undefined = head; e !== undefined; e = e.next) {
        values++;
        references += e.refs;
        chars += e.value.length;
      }
    }
    return { values, references, chars };
  }

  /** One value of the object being retained: the table's copy, counted (a new entry if none). */
  private readonly take = (value: string, f: number): string | undefined => {
    const head = this.table.get(f);
    let e = head;
    let depth = 0;
    while (e !== undefined && e.value !== value) {
      e = e.next;
      depth++;
    }
    if (e !== undefined) e.refs++;
    else if (depth < MAX_CHAIN) this.table.set(f, (e = new Entry(value, head)));
    else return undefined;
    const taken = this.taken;
    if (taken === undefined) this.taken = e;
    else if (taken instanceof Entry) this.taken = [taken, e];
    else taken.push(e);
    // An equal string in place, before any handler sees the object.
    return e.value;
  };

  private unref(e: Entry): void {
    if (--e.refs > 0) return;
    const f = fingerprint(e.value);
    let prev: Entry | undefined;
    let at = this.table.get(f);
    while (at !== undefined && at !== e) {
      prev = at;
      at = at.next;
    }
    if (at === undefined) return;
    if (prev !== undefined) prev.next = e.next;
    else if (e.next !== undefined) this.table.set(f, e.next);
    else this.table.delete(f);
  }
}
