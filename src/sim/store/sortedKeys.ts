// Keys kept in byte order (etcd's order for list results), with cheap prefix ranges.

export class SortedKeys {
  private keys: string[] = [];

  get size(): number {
    return this.keys.length;
  }

  /** Index of the first key >= `key`. */
  lowerBound(key: string): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.keys[mid] ?? '') < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  insert(key: string): void {
    const i = this.lowerBound(key);
    if (this.keys[i] !== key) this.keys.splice(i, 0, key);
  }

  remove(key: string): void {
    const i = this.lowerBound(key);
    if (this.keys[i] === key) this.keys.splice(i, 1);
  }

  /** Keys >= `from` that start with `prefix` (all keys when both are ''), in order. */
  *range(prefix: string, from: string): Generator<string> {
    const start = this.lowerBound(from > prefix ? from : prefix);
    for (let i = start; i < this.keys.length; i++) {
      const k = this.keys[i] ?? '';
      if (!k.startsWith(prefix)) return;
      yield k;
    }
  }

  /** How many keys >= `from` start with `prefix`. */
  countFrom(prefix: string, from: string): number {
    const start = this.lowerBound(from > prefix ? from : prefix);
    const end = prefix === '' ? this.keys.length : this.lowerBound(prefix + '\uffff');
    return Math.max(0, end - start);
  }

  static from(keys: Iterable<string>): SortedKeys {
    const s = new SortedKeys();
    s.keys = [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return s;
  }
}
