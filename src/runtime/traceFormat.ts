import type { ReconcileRecord, StaleRead } from '../controllerProtocol/index.ts';

// How a finished reconcile is printed: one human line for the terminal, one JSON line for --trace.

export function traceLine(r: ReconcileRecord): string {
  return JSON.stringify({
    seq: r.seq,
    reconcileId: r.reconcileId,
    controller: r.controller,
    worker: r.worker,
    kind: r.forKind.kind,
    key: r.key,
    trigger: r.trigger.map((t) => ({ type: t.type, kind: t.kind, key: t.key, resourceVersion: t.resourceVersion, via: t.via })),
    cacheResourceVersion: r.cacheResourceVersion,
    objectResourceVersion: r.objectResourceVersion ?? null,
    writes: r.writes.map((w) => ({ verb: w.verb, kind: w.kind, namespace: w.namespace, name: w.name, resourceVersion: w.resourceVersion, error: w.error, changed: w.changed })),
    staleRead: r.staleReads?.length ? r.staleReads : undefined,
    result: r.outcome?.kind === 'success' ? r.outcome.result : undefined,
    error: r.outcome?.kind === 'error' ? { message: r.outcome.error.message, terminal: r.outcome.error.terminal, timedOut: r.outcome.error.timedOut } : undefined,
    requeue: r.decision,
    startedAt: new Date(r.startedAt).toISOString(),
    durationMs: r.durationMs,
  });
}

export function describeTrigger(r: ReconcileRecord): string {
  const first = r.trigger[0];
  if (!first) return '';
  const more = r.trigger.length > 1 ? ` +${r.trigger.length - 1}` : '';
  return first.via === 'requeue' ? 'requeue' : `${first.type} ${first.kind === r.forKind.kind && first.key === r.key ? '' : `${first.kind} ${first.key} `}rv ${first.resourceVersion}${more}`;
}

export function describeRecord(r: ReconcileRecord): string {
  const result =
    r.outcome?.kind === 'error'
      ? `${r.outcome.error.terminal ? 'terminal error' : r.outcome.error.timedOut ? 'timed out' : 'error'}: ${r.outcome.error.message}`
      : r.outcome?.result.requeueAfter
        ? `ok, requeue after ${r.outcome.result.requeueAfter} ms`
        : r.outcome?.result.requeue
          ? 'ok, requeue'
          : 'ok';
  const writes = r.writes.map((w) => `${w.verb} ${w.kind} ${w.namespace ? `${w.namespace}/` : ''}${w.name} → ${w.error ? `${w.error.code ?? ''} ${w.error.message}` : `rv ${w.resourceVersion ?? '-'}`}`);
  const stale = (r.staleReads ?? []).map((s) => `warning: ${describeStaleRead(s)}`);
  const details = [...writes, ...stale];
  return `#${r.seq} ${r.forKind.kind} ${r.key} (${describeTrigger(r)}) → ${result} [${durationWords(r.durationMs)} ms]${details.length ? `\n    ${details.join('\n    ')}` : ''}`;
}

/** `stale read: ConfigMap default/web at rv 11, older than rv 12 this controller wrote (update in #7)`. */
export function describeStaleRead(s: StaleRead): string {
  const object = `${s.kind} ${s.namespace ? `${s.namespace}/` : ''}${s.name}`;
  const by = s.wroteBy ? ` in #${s.wroteBy}` : '';
  if (s.notFound) return `stale read: ${object} not in the cache, though this controller's ${s.verb}${by} wrote it at rv ${s.wroteResourceVersion ?? '?'}`;
  if (!s.wroteResourceVersion) return `stale read: ${object} at rv ${s.readResourceVersion ?? '?'} still in the cache after this controller's ${s.verb}${by} deleted it`;
  return `stale read: ${object} at rv ${s.readResourceVersion ?? '?'}, older than rv ${s.wroteResourceVersion} this controller wrote (${s.verb}${by})`;
}

/**
 * A Go program times its reconciles to the nanosecond (`0.001913`, `10.925343`), the TypeScript host
 * to the millisecond: two significant digits below 100 ms, whole milliseconds above.
 */
function durationWords(ms: number | undefined): string {
  if (ms === undefined) return '?';
  return String(ms >= 100 ? Math.round(ms) : Number(ms.toPrecision(2)));
}
