import type { ReconcileResult } from './api.ts';

// How a reconcile ended and what its key's queue did next: the controller's process decides both
// (src/host/engine/reconcileHandler.ts; go/controllerlab/reconciler.go for Go) and sends them in
// its records, where the session, the debugger and the views read them.

/** How a reconcile call ended, before any requeue decision. */
export type ReconcileOutcome =
  | { kind: 'success'; result: ReconcileResult }
  | { kind: 'error'; error: ReconcileErrorInfo };

export interface ReconcileErrorInfo {
  name: string;
  message: string;
  stack?: string;
  /** TerminalError: report, do not retry. */
  terminal: boolean;
  /** The reconcile exceeded its time limit (it may still be running; its writes stay recorded). */
  timedOut?: boolean;
}

export type RequeueDecision =
  | { action: 'forget' }
  | { action: 'addRateLimited'; reason: 'error' | 'requeue' }
  | { action: 'addAfter'; delayMs: number }
  | { action: 'forgetTerminal' };
