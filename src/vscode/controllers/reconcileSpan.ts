import { describeStaleRead, type ReconcileRecord, type RequeueDecision } from '../../runtime/index.ts';
import type { ReconcileSpan } from '../../shared/protocol/reconcileSpans.ts';
import { formatMs } from './durationText.ts';

function describeDecision(d: RequeueDecision | undefined): string {
  switch (d?.action) {
    case undefined: return '';
    case 'forget': return 'done';
    case 'forgetTerminal': return 'terminal error, not retried';
    case 'addRateLimited': return d.reason === 'error' ? 'requeued with backoff (error)' : 'requeued with backoff';
    case 'addAfter': return `requeued after ${formatMs(d.delayMs)}`;
  }
}

/** A reconcile record as a timeline span: its trigger events and its writes, with their RVs, and its stale reads. */
export function reconcileSpan(record: ReconcileRecord): ReconcileSpan {
  const outcome = record.outcome === undefined ? 'running' : record.outcome.kind === 'error' ? 'error' : 'success';
  const decision = describeDecision(record.decision);
  const detail = record.outcome?.kind === 'error' ? `${record.outcome.error.message}${decision ? ` — ${decision}` : ''}` : decision;
  return {
    id: record.reconcileId,
    seq: record.seq,
    controller: record.controller,
    kind: record.forKind.kind,
    key: record.key,
    startedAt: record.startedAt,
    endedAt: record.durationMs === undefined ? undefined : record.startedAt + record.durationMs,
    outcome,
    detail,
    triggers: record.trigger.map((t) => ({ type: t.type, kind: t.kind, key: t.key, resourceVersion: t.resourceVersion, via: t.via, at: t.at })),
    writes: record.writes.map((w) => ({
      verb: w.verb,
      kind: w.kind,
      namespace: w.namespace ?? '',
      name: w.name,
      resourceVersion: w.resourceVersion,
      error: w.error ? `${w.error.code ?? ''} ${w.error.reason ?? ''} ${w.error.message}`.trim() : undefined,
      at: w.at,
    })),
    ...(record.staleReads?.length ? { warnings: record.staleReads.map((s) => `warning: ${describeStaleRead(s)}`) } : {}),
  };
}
