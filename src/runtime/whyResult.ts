import type { QueueSnapshot, ReconcileRecord } from '../controllerProtocol/index.ts';
import { missingRule } from './rbacRefusal.ts';

// After "Reconciled? yes": what the reconcile that served the event achieved, when it fell short.
// A write RBAC refused names the verb and resource and the rule to add; an error says whether the
// key is retried and how long its backoff has left. A reconcile that succeeded adds nothing.

const seconds = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);

function objectOf(w: ReconcileRecord['writes'][number]): string {
  return `${w.kind} ${w.namespace ? `${w.namespace}/` : ''}${w.name}`;
}

/** Whether its writes went through: each one RBAC refused, with the rule its Role lacks. */
export function writtenStep(record: ReconcileRecord): string | undefined {
  const refused = record.writes.filter((w) => w.error?.code === 403);
  if (refused.length === 0) return undefined;
  return `no, RBAC refused ${refused
    .map((w) => {
      const missing = missingRule(w.error?.message ?? '');
      return missing ? `its ${w.verb} of ${objectOf(w)}: ${missing.user} lacks ${missing.rule} (kubebuilder: ${missing.marker})` : `its ${w.verb} of ${objectOf(w)}: ${w.error?.message ?? 'forbidden'}`;
    })
    .join('; ')}`;
}

/** How it ended, when it failed: the error, and whether (and when) the key is tried again. */
export function resultStep(record: ReconcileRecord, records: readonly ReconcileRecord[], queue: QueueSnapshot | undefined, now: number): string | undefined {
  if (record.outcome?.kind !== 'error') return undefined;
  const { error } = record.outcome;
  const failed = `error: ${error.message.split('\n')[0] ?? ''}`;
  if (error.terminal) return `${failed}; a TerminalError, so ${record.key} is not retried`;
  // Only the key's latest reconcile has a retry ahead of it; an earlier one names the next.
  const next = records.find((r) => r.controller === record.controller && r.key === record.key && r.seq > record.seq);
  if (next) return `${failed}; retried with backoff (its next reconcile: #${next.seq})`;
  const state = queue?.keys.find((k) => k.key === record.key);
  if (state?.state === 'waiting' && state.readyAt !== undefined) {
    const left = Math.max(0, state.readyAt - now);
    return `${failed}; ${record.key} waits in the rate limiter: retry ${state.retries} in ${seconds(left)}${state.backoffMs !== undefined ? ` (a ${seconds(state.backoffMs)} backoff)` : ''}`;
  }
  if (state) return `${failed}; ${record.key} is ${state.state} to be retried`;
  return `${failed}; retried with backoff`;
}
