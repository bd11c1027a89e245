// Decodings of the managedFields of the objects written most recently, kept for their next write
// (a controller's status updates come in runs). Bounded by the bytes the decodings take, not by
// their count: one object with 100,000 labels decodes to some 30 MB of field sets, while a
// typical object's take 20–40 KB. A decoding larger than the whole budget is not kept.

export class RecentDecodings<K extends object, V> {
  private readonly entries = new Map<K, { value: V; bytes: number }>();
  private readonly budget: number;
  private used = 0;

  /** `budget`: the bytes (as the caller estimates them) the kept decodings may take together. */
  constructor(budget: number) {
    this.budget = budget;
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    // Most recent last: the first entry is the one to drop.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V, bytes: number): void {
    this.delete(key);
    if (bytes > this.budget) return;
    this.entries.set(key, { value, bytes });
    this.used += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.used <= this.budget) break;
      this.entries.delete(oldest);
      this.used -= entry.bytes;
    }
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.used -= entry.bytes;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The bytes the kept decodings take, as estimated when they were kept. */
  get bytes(): number {
    return this.used;
  }
}
