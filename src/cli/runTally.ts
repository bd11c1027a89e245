import type { ReconcileRecord } from '../runtime/index.ts';

// What `controller-lab run` counts while it runs: enough for its one-line summary, for the list of
// keys still failing when it stops, and for its exit code.

export class RunTally {
  reconciles = 0;
  errors = 0;
  requeues = 0;
  hostRestarts = 0;
  /** Failures no controller should have, even when every key ends well. */
  hostFailures = 0;
  processExits = 0;
  uncaughtErrors = 0;
  /** controller + key → its last reconcile, while that one failed (waiting for its retry, or terminally). */
  private readonly failing = new Map<string, ReconcileRecord>();
  private readonly startedAt = performance.now();

  reconciled(record: ReconcileRecord): void {
    this.reconciles++;
    const error = record.outcome?.kind === 'error' ? record.outcome.error : undefined;
    if (error) this.errors++;
    if (error?.name === 'ProcessExitError') this.processExits++;
    const action = record.decision?.action;
    if (action === 'addAfter' || (action === 'addRateLimited' && record.decision?.reason === 'requeue')) this.requeues++;
    // A terminal error is not retried, but its key still ended in failure.
    // A Go manager's controllers may reconcile the same key: each key is failing per controller.
    const key = `${record.controller}\0${record.key}`;
    if (error) this.failing.set(key, record);
    else this.failing.delete(key);
  }

  /** An exception or rejection no code handled: a bug even when every reconcile succeeded. */
  uncaught(): void {
    this.uncaughtErrors++;
  }

  hostFailed(restarting: boolean): void {
    this.hostFailures++;
    if (restarting) this.hostRestarts++;
  }

  /** Nothing a user must look at: no key left failing, no host failure. */
  get clean(): boolean {
    return this.failing.size === 0 && this.hostFailures + this.processExits + this.uncaughtErrors === 0;
  }

  /** The failures that make the exit code 1 although no key is left failing, or undefined. */
  problemsReport(): string | undefined {
    const parts: string[] = [];
    if (this.hostFailures) parts.push(`the controller host failed ${this.hostFailures} time(s) (see above)`);
    if (this.processExits) parts.push(`process.exit was called in ${this.processExits} reconcile(s)`);
    if (this.uncaughtErrors) parts.push(`${this.uncaughtErrors} exception(s) or rejection(s) went uncaught`);
    return parts.length ? parts.join('; ') : undefined;
  }

  summary(): string {
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
    const parts = [plural(this.reconciles, 'reconcile'), plural(this.errors, 'error'), plural(this.requeues, 'requeue')];
    if (this.hostRestarts) parts.push(plural(this.hostRestarts, 'host restart'));
    return `run: ${parts.join(', ')} in ${((performance.now() - this.startedAt) / 1000).toFixed(1)} s`;
  }

  /** One line naming the keys that still fail (the first few), or undefined when none do. */
  failingReport(max = 5): string | undefined {
    if (this.failing.size === 0) return undefined;
    const shown = [...this.failing.values()].slice(0, max).map((r) => {
      const message = r.outcome?.kind === 'error' ? r.outcome.error.message : '';
      return `${r.forKind.kind} ${r.key} (#${r.seq}: ${message.length > 200 ? `${message.slice(0, 200)}…` : message})`;
    });
    const more = this.failing.size > max ? `, and ${this.failing.size - max} more` : '';
    return `${this.failing.size} key(s) still failing: ${shown.join(', ')}${more}`;
  }
}
