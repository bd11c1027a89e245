import { constants } from 'node:os';
import type { QueueSnapshot, ReconcileRecord } from '../runtime/index.ts';

// A command stopped by SIGINT (Ctrl-C) or SIGTERM while it had work under way ends as a shell
// reports a process killed by that signal (128 + its number: 130, 143), so a script or CI step sees
// it was cut short; stopped idle, it ends 0, as a controller-runtime manager does on its signal
// handler (Ctrl-C is how a run that watches ends). The second signal forces the end at once.

export type StopSignal = 'SIGINT' | 'SIGTERM';

export const STOP_SIGNALS: readonly StopSignal[] = ['SIGINT', 'SIGTERM'];

/** The exit code a shell gives a process that `signal` ended. */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + constants.signals[signal];
}

/**
 * Calls `stop` on the first SIGINT or SIGTERM and `force` on the next one (Ctrl-C twice).
 * The returned function removes the handlers.
 */
export function onStopSignals(stop: (signal: StopSignal) => void, force: (signal: StopSignal) => void): () => void {
  let first: StopSignal | undefined;
  const handlers = STOP_SIGNALS.map((signal) => {
    const handler = (): void => {
      if (first === undefined) {
        first = signal;
        stop(signal);
      } else force(first);
    };
    return [signal, handler] as const;
  });
  for (const [signal, handler] of handlers) process.on(signal, handler);
  return () => {
    for (const [signal, handler] of handlers) process.off(signal, handler);
  };
}

/**
 * Whether stopping now cuts work short: a reconcile running, keys queued, or keys waiting to retry
 * a failure. A key waiting only on its requeueAfter is a poll, not work left.
 */
export function cutShort(inFlight: readonly ReconcileRecord[], queue: QueueSnapshot): boolean {
  if (inFlight.length > 0 || queue.depth > 0 || queue.processing > 0) return true;
  // The snapshot lists the first keys only: waiting keys it leaves out may be retries.
  if (queue.omitted && queue.waiting > 0) return true;
  return queue.keys.some((k) => k.state === 'waiting' && k.reason !== 'after');
}

const SHOWN_KEYS = 10;

/**
 * The line a run prints when a signal stops it: the reconciles it cut short (kind, key, for how
 * long) and what was still queued or waiting to retry.
 */
export function interruptedLine(signal: StopSignal, inFlight: readonly ReconcileRecord[], queue: QueueSnapshot, now = Date.now()): string {
  const running = inFlight.map((r) => `#${r.seq} ${r.forKind.kind} ${r.key} (running ${((now - r.startedAt) / 1000).toFixed(1)} s)`);
  const during = running.length ? `during reconcile ${running.join(', ')}` : 'with no reconcile running';
  const left = queue.keys.filter((k) => k.state !== 'processing');
  const total = queue.depth + queue.waiting;
  const shown = left.slice(0, SHOWN_KEYS).map((k) => `${k.key} ${k.state}`);
  const more = Math.max(total, left.length) - shown.length;
  const queued = shown.length ? `${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}` : 'nothing';
  return `stopped by ${signal} ${during}; left in the queue: ${queued}`;
}
