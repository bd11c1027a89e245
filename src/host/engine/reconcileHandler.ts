import type { ReconcileOutcome, ReconcileResult, RequeueDecision } from '../../controllerProtocol/index.ts';
import { truncateText } from './truncate.ts';

// The one place that decides what happens to a key after its reconcile, as controller-runtime's
// reconcileHandler: every path through a worker ends here, so the rules cannot drift apart.

/** The narrow slice of the workqueue the decision needs. */
export interface RequeueTarget {
  forget(key: string): void;
  addRateLimited(key: string): void;
  addAfter(key: string, delayMs: number): void;
}

export function decideRequeue(outcome: ReconcileOutcome): RequeueDecision {
  if (outcome.kind === 'error') {
    return outcome.error.terminal ? { action: 'forgetTerminal' } : { action: 'addRateLimited', reason: 'error' };
  }
  const { requeueAfter, requeue } = outcome.result;
  // controller-runtime checks RequeueAfter before Requeue: an explicit delay wins.
  if (typeof requeueAfter === 'number' && requeueAfter > 0) return { action: 'addAfter', delayMs: requeueAfter };
  if (requeue) return { action: 'addRateLimited', reason: 'requeue' };
  return { action: 'forget' };
}

/** Applies a decision to the queue. `addAfter` forgets first so the backoff starts over next time. */
export function applyRequeue(queue: RequeueTarget, key: string, decision: RequeueDecision): void {
  switch (decision.action) {
    case 'forget':
    case 'forgetTerminal':
      queue.forget(key);
      return;
    case 'addRateLimited':
      queue.addRateLimited(key);
      return;
    case 'addAfter':
      queue.forget(key);
      queue.addAfter(key, decision.delayMs);
      return;
  }
}

/** Decides and applies in one step; returns the decision so it can be recorded and shown. */
export function handleReconcileOutcome(queue: RequeueTarget, key: string, outcome: ReconcileOutcome): RequeueDecision {
  const decision = decideRequeue(outcome);
  applyRequeue(queue, key, decision);
  return decision;
}

/**
 * Normalises whatever user code returned or threw. Non-Error throws still become errors. A result
 * whose requeueAfter is not a number of milliseconds, or whose requeue is not a boolean, is an
 * error too: ignored, the requeue it meant would silently never happen.
 */
export function outcomeFromReturn(value: unknown): ReconcileOutcome {
  const result = (value && typeof value === 'object' ? value : {}) as ReconcileResult;
  const wrong = resultProblem(result);
  if (wrong) return { kind: 'error', error: { name: 'Error', message: `reconcile returned ${wrong}`, terminal: false } };
  return { kind: 'success', result: { requeue: result.requeue === true || undefined, requeueAfter: numberOrUndefined(result.requeueAfter) } };
}

/** A returned value as the user wrote it: a string in quotes, so `"soon"` reads as the string it is. */
function shown(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : describeThrown(value);
}

function resultProblem(result: ReconcileResult): string | undefined {
  const { requeueAfter, requeue } = result as { requeueAfter?: unknown; requeue?: unknown };
  if (requeueAfter !== undefined && requeueAfter !== null && (typeof requeueAfter !== 'number' || Number.isNaN(requeueAfter))) {
    return `requeueAfter ${shown(requeueAfter)}: not a number of milliseconds (return { requeueAfter: 5000 } to run again in 5 s)`;
  }
  if (requeue !== undefined && requeue !== null && typeof requeue !== 'boolean') {
    return `requeue ${shown(requeue)}: not true or false (return { requeue: true } to run again with backoff)`;
  }
  return undefined;
}

export function outcomeFromThrow(err: unknown, terminal: boolean): ReconcileOutcome {
  if (!(err instanceof Error)) {
    // An Error made here would carry the host's frames, which say nothing of where it was thrown.
    const type = typeof err;
    const kind = err === null || err === undefined ? String(err) : Array.isArray(err) ? 'an array' : `${type === 'object' ? 'an' : 'a'} ${type}`;
    const stack = `${kind} was thrown, not an Error, so there is no stack trace (throw new Error(…) to have one)`;
    return { kind: 'error', error: { name: 'Error', message: truncateText(describeThrown(err)), stack, terminal } };
  }
  return { kind: 'error', error: { name: err.name, message: truncateText(String(err.message)), stack: err.stack === undefined ? undefined : truncateText(String(err.stack)), terminal } };
}

/** Whatever was thrown, as text; a value that cannot be shown (a cycle, a throwing toString) still says what it was. */
function describeThrown(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    try {
      return String(value);
    } catch {
      return `a thrown ${typeof value} that cannot be shown`;
    }
  }
}

function numberOrUndefined(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}
