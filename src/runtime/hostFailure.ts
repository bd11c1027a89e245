import type { ReconcileOutcome, ReconcileRecord } from '../controllerProtocol/index.ts';

// What the parent says when a controller host goes down on its own: which reconciles it was running,
// for how long, and why (blocked event loop, or exit). The reconciles it took down become failed
// reconciles like any other, so output, trace, views and exit code all show them.

export type HostFailureCause =
  | { kind: 'unresponsive'; silentMs: number }
  | { kind: 'exited'; code: number | null; signal: NodeJS.Signals | null; heapLimitMb?: number };

export interface InterruptedReconcile {
  record: ReconcileRecord;
  /** How long it had been running (undefined: it was still waiting at the debugger's gate). */
  runningMs?: number;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function exitWords(cause: Extract<HostFailureCause, { kind: 'exited' }>): string {
  return cause.signal ? `signal ${cause.signal}` : `code ${cause.code}`;
}

/** `out of memory (heap limit 2048 MB)`: a host that died of a full heap, whatever signal V8 ended it with. */
function outOfMemoryWords(heapLimitMb: number): string {
  return `out of memory (heap limit ${heapLimitMb > 0 ? `${heapLimitMb} MB` : "V8's default"})`;
}

function reconcileWords(r: InterruptedReconcile): string {
  const running = r.runningMs === undefined ? 'not started' : `running ${seconds(r.runningMs)}`;
  return `#${r.record.seq} ${r.record.forKind.kind} ${r.record.key} (${running})`;
}

/** `host`: what the process is called (a Go controller's own program is no "controller host"). */
export function describeHostFailure(controller: string, cause: HostFailureCause, interrupted: InterruptedReconcile[], host = 'controller host'): string {
  const running = interrupted.filter((r) => r.runningMs !== undefined);
  if (cause.kind === 'exited') {
    const during = interrupted.length ? ` during reconcile ${interrupted.map(reconcileWords).join(', ')}` : ' outside any reconcile';
    if (cause.heapLimitMb !== undefined) return `the ${host} of controller ${controller} ran ${outOfMemoryWords(cause.heapLimitMb)}${during}`;
    return `the ${host} exited (${exitWords(cause)})${during}`;
  }
  const first = running[0];
  if (running.length === 1 && first) {
    return `reconcile ${reconcileWords(first)} of controller ${controller} blocked the controller host: no heartbeat for ${seconds(cause.silentMs)} (a synchronous loop that never returns?); the host was stopped`;
  }
  if (running.length > 1) {
    return `controller ${controller} blocked the controller host: no heartbeat for ${seconds(cause.silentMs)} during reconcile ${running.map(reconcileWords).join(', ')} (a synchronous loop that never returns?); the host was stopped`;
  }
  return `controller ${controller} blocked the controller host outside any reconcile: no heartbeat for ${seconds(cause.silentMs)} (an endless loop at the top level of the module, in a watches map or in a timer?); the host was stopped`;
}

/** The outcome recorded for a reconcile the host took down with it. */
export function interruptedOutcome(cause: HostFailureCause, r: InterruptedReconcile): ReconcileOutcome {
  if (r.runningMs === undefined) {
    return { kind: 'error', error: { name: 'HostStopped', message: 'the controller host stopped before this reconcile ran', terminal: false } };
  }
  if (cause.kind === 'unresponsive') {
    return {
      kind: 'error',
      error: { name: 'HostBlocked', message: `blocked the controller host for ${seconds(r.runningMs)} (no heartbeat): stopped with its process`, terminal: false, timedOut: true },
    };
  }
  if (cause.heapLimitMb !== undefined) {
    return { kind: 'error', error: { name: 'HostOutOfMemory', message: `the controller host ran ${outOfMemoryWords(cause.heapLimitMb)} during this reconcile`, terminal: false } };
  }
  return { kind: 'error', error: { name: 'HostExited', message: `the controller host exited (${exitWords(cause)}) during this reconcile`, terminal: false } };
}

/** A key that took the host down waits 1 s, 2 s, 4 s … (at most 5 min) before it runs again. */
export function hostFailureBackoffMs(failures: number): number {
  return Math.min(300_000, 1000 * 2 ** Math.max(0, failures - 1));
}
