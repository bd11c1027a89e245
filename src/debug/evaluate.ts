import { Script } from 'node:vm';
import type { CacheView, QueueSnapshot, ReconcileRecord } from '../runtime/index.ts';
import { requestView } from './requestView.ts';

// `evaluate` in a stopped reconcile: JavaScript with `obj`, `req` (what the Request scope shows),
// `trigger`, `writes`, `record`, `queue` and `cache.get(kind, ns, name)` /
// `cache.list(kind, { namespace, labelSelector })`, the cache as that reconcile saw it. Runs in the
// debug adapter, only for a trusted workspace. A bad expression throws an EvaluateError whose
// message is the one line the Debug Console shows.

export class EvaluateError extends Error {
  override name = 'EvaluateError';
}

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : `threw ${String(err)}`;
}

/** The error of parsing `text` alone as a script, if it has one. */
function syntaxErrorOf(text: string): unknown {
  try {
    new Script(text);
    return undefined;
  } catch (err) {
    return err;
  }
}

export function evaluateInStop(expression: string, record: ReconcileRecord | undefined, cache: CacheView | undefined, queue: QueueSnapshot | undefined): unknown {
  const scope = {
    obj: record?.object,
    req: record && requestView(record),
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
    try {
      fn = new Function(...names, `"use strict"; ${expression}`) as typeof fn;
    } catch (asStatements) {
      // Both wrappers add text (`return (…);`, the function's `}`) that their errors may name:
      // the error to show is the one of the text as typed.
      throw new EvaluateError(describe(syntaxErrorOf(expression) ?? asStatements));
    }
  }
  try {
    return fn(...values);
  } catch (err) {
    throw new EvaluateError(describe(err));
  }
}
