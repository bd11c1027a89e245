// Keys kept in byte order (etcd's order for list results), with cheap prefix ranges. Inserts and
// removals are buffered and merged in on the next read, so a burst of creates costs O(1) each and
// one O(n + k log k) merge, instead of an O(n) array splice per create.

const byBytes = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export class SortedKeys {
  /** Sorted; may still hold keys listed in `removed`. */
  private keys: string[] = [];
  /** Inserted since the last merge (never in `keys`). */
  private added = new Set<string>();
  /** Removed since the last merge (all in `keys`). */
  private removed = new Set<string>();

  get size(): number {
    return this.keys.length + this.added.size - this.removed.size;
  }

  /** Adds a key that is not present. */
  insert(key: string): void {
    if (this.removed.delete(key)) return;
    this.added.add(key);
  }

  /** Removes a key that is present. */
  remove(key: string): void {
    if (this.added.delete(key)) return;
    this.removed.add(key);
  }

  private settle(): void {
    if (this.added.size === 0 && this.removed.size === 0) return;
    const add = [...this.added].sort(byBytes);
    const out: string[] = new Array<string>(this.size);
    let n = 0;
    let j = 0;
    for (const k of this.keys) {
      if (this.removed.has(k)) continue;
      while (j < add.length && (add[j] ?? '') < k) out[n++] = add[j++] ?? '';
      out[n++] = k;
    }
    while (j < add.length) out[n++] = add[j++] ?? '';
    out.length = n;
    this.keys = out;
    this.added.clear();
    this.removed.clear();
  }

  /** Index of the first key >= `key`. */
  private lowerBound(key: string): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.keys[mid] ?? '') < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Keys >= `from` that start with `prefix` (all keys when both are ''), in order. */
  *range(prefix: string, from: string): Generator<string> {
    this.settle();
    const keys = this.keys;
    for (let i = this.lowerBound(from > prefix ? from : prefix); i < keys.length; i++) {
      const k = keys[i] ?? '';
      if (!k.startsWith(prefix)) return;
      yield k;
    }
  }

  /** How many keys >= `from` start with `prefix`. */
  countFrom(prefix: string, from: string): number {
    this.settle();
    const start = this.lowerBound(from > prefix ? from : prefix);
    const end = prefix === '' ? this.keys.length : this.lowerBound(prefix + '\uffff');
    return Math.max(0, end - start);
  }

  static from(keys: Iterable<string>): SortedKeys {
    const s = new SortedKeys();
    s.keys = [...keys].sort(byBytes);
    return s;
  }
}
