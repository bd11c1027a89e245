import type { CacheView } from '../runtime/cacheHistory.ts';
import type { QueueSnapshot, ReconcileRecord } from '../runtime/records.ts';

// `evaluate` in a stopped reconcile: JavaScript with `obj`, `req`, `trigger`, `writes`, `record`,
// `queue` and `cache.get(kind, ns, name)` / `cache.list(kind, { namespace, labelSelector })`, the
// cache as that reconcile saw it. Runs in the debug adapter, only for a trusted workspace.

export function evaluateInStop(expression: string, record: ReconcileRecord | undefined, cache: CacheView | undefined, queue: QueueSnapshot | undefined): unknown {
  const scope = {
    obj: record?.object,
    req: record?.request,
    trigger: record?.trigger,
    writes: record?.writes,
    record,
    queue,
    cache: cache ?? { get: () => undefined, list: () => [], kinds: () => [] },
  };
  const names = Object.keys(scope);
  const values = Object.values(scope);
  let fn: (...args: unknown[]) => unknown;
  try {
    fn = new Function(...names, `"use strict"; return (${expression});`) as typeof fn;
  } catch {
    // Not an expression: run it as statements (a `return` gives the value).
    fn = new Function(...names, `"use strict"; ${expression}`) as typeof fn;
  }
  return fn(...values);
}
