import { PerformanceObserver, constants } from 'node:perf_hooks';
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import { ApiError } from '../../shared/apiError.ts';

// The sim's etcd is its heap. etcd past its quota (--quota-backend-bytes) raises its NOSPACE alarm
// and refuses every put with "etcdserver: mvcc: database space exceeded", which kube-apiserver
// passes on as a 500, while reads and deletes go on. The sim does the same past a share of V8's
// heap limit, so a client is told, and the process does not die of "JavaScript heap out of memory".
// What the heap holds is read after V8's full collections (live objects, not garbage waiting).

export const SPACE_EXCEEDED = 'etcdserver: mvcc: database space exceeded';

/** Past this share of the limit (live after a full collection), puts are refused… */
const REFUSE_AT = 0.75;
export const refusedPastShare = REFUSE_AT;
/** …and past this share of it, garbage included, too: V8 is about to collect or to give up. */
const REFUSE_ANYWAY_AT = 0.9;
/** Below this share (garbage included), they are taken again. */
const TAKE_AGAIN_AT = 0.6;

export interface HeapReading {
  /** What V8's old generation may hold, in bytes: past it, the process dies. */
  limit: number;
  /** Old generation in use now, garbage included. */
  used(): number;
  /** Calls `listener` after each full collection; returns how to stop. */
  afterFullCollection(listener: () => void): () => void;
}

const MB = 1024 * 1024;
/** V8's young generation: two semi-spaces and a large-object space of one, 64 MB each unless told. */
const DEFAULT_SEMI_SPACE_MB = 64;

/** The value of a V8 flag this process was started with (on the command line or in NODE_OPTIONS). */
function v8Flag(name: string): number | undefined {
  const words = [...process.execArgv, ...(process.env['NODE_OPTIONS'] ?? '').split(/\s+/)];
  let value: number | undefined;
  for (const w of words) {
    const m = new RegExp(`^--${name.replace(/-/g, '[-_]')}=(\\d+)$`).exec(w);
    if (m) value = Number(m[1]);
  }
  return value;
}

/**
 * The old generation's limit: `--max-old-space-size` when given, else the heap's limit less the
 * young generation V8 counts in it (it dies when the old generation is full, whatever the young).
 */
function oldGenerationLimit(): number {
  const old = v8Flag('max-old-space-size');
  if (old !== undefined) return old * MB;
  return getHeapStatistics().heap_size_limit - 3 * (v8Flag('max-semi-space-size') ?? DEFAULT_SEMI_SPACE_MB) * MB;
}

const YOUNG = new Set(['new_space', 'new_large_object_space']);

const OLD_GENERATION_LIMIT = oldGenerationLimit();

/** This process's heap. */
export const processHeap: HeapReading = {
  limit: OLD_GENERATION_LIMIT,
  used: () => {
    // The whole heap is cheap to read (1 µs, against 13 for the spaces one by one); while it is
    // below every threshold, so is the old generation within it.
    const total = getHeapStatistics().used_heap_size;
    if (total < OLD_GENERATION_LIMIT * TAKE_AGAIN_AT) return total;
    let used = 0;
    for (const space of getHeapSpaceStatistics()) if (!YOUNG.has(space.space_name)) used += space.space_used_size;
    return used;
  },
  afterFullCollection(listener) {
    const observer = new PerformanceObserver((list) => {
      const full = list.getEntries().some((e) => (e as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR);
      if (full) listener();
    });
    observer.observe({ entryTypes: ['gc'] });
    return () => observer.disconnect();
  },
};

const mb = (bytes: number) => `${Math.round(bytes / MB)} MB`;

export class HeapQuota {
  private readonly heap: HeapReading;
  private readonly onChange: (problem: string | undefined) => void;
  private readonly stop: () => void;
  private refusing = false;
  private live = 0;

  /** `onChange`: told when puts start being refused (why) and when they are taken again (undefined). */
  constructor(heap: HeapReading = processHeap, onChange: (problem: string | undefined) => void = () => undefined) {
    this.heap = heap;
    this.onChange = onChange;
    this.stop = heap.afterFullCollection(() => {
      this.live = heap.used();
      this.update(this.live);
    });
  }

  /** The share of the limit past which puts are refused, in bytes. */
  get refusedPast(): number {
    return this.heap.limit * REFUSE_AT;
  }

  /** Throws etcd's NOSPACE error while the heap is past its quota. */
  admitPut(): void {
    this.update(this.heap.used());
    if (this.refusing) throw new ApiError(500, SPACE_EXCEEDED);
  }

  /** Why puts are refused now (for /readyz), or undefined. */
  problem(): string | undefined {
    if (!this.refusing) return undefined;
    return `${SPACE_EXCEEDED}: the heap holds ${mb(Math.max(this.live, this.heap.used()))} of its ${mb(this.heap.limit)} limit; writes are refused past ${mb(this.refusedPast)} until objects are deleted`;
  }

  dispose(): void {
    this.stop();
  }

  private update(used: number): void {
    const limit = this.heap.limit;
    if (!this.refusing) {
      if (this.live < limit * REFUSE_AT && used < limit * REFUSE_ANYWAY_AT) return;
      this.refusing = true;
      // Until the next full collection tells, what is used counts as live.
      this.live = Math.max(this.live, used);
      this.onChange(this.problem());
    } else if (Math.min(this.live, used) < limit * TAKE_AGAIN_AT) {
      this.refusing = false;
      this.onChange(undefined);
    }
  }
}
