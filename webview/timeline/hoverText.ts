import type { ReconcileSpan } from '../../src/shared/protocol/reconcileSpans.ts';
import type { TimelineEvent } from '../../src/shared/protocol/timeline.ts';
import { MARKER_STYLES } from './markerStyles.ts';

// What a marker or a reconcile bar says when the pointer rests on it (the canvas's tooltip): a
// marker that carries words (a perturbation: what was done) says them; a reconcile with warnings
// (stale reads) lists them under its title.

export function eventHoverText(e: TimelineEvent): string {
  const what = e.name ? `${e.type} ${e.kind ?? e.resource} ${e.namespace ? `${e.namespace}/` : ''}${e.name}` : `${MARKER_STYLES[e.type].label} · ${e.informer}`;
  const head = `${what} · rv ${e.resourceVersion || '—'}`;
  return e.note ? `${e.note}\n${head}` : head;
}

export function spanHoverText(s: ReconcileSpan): string {
  const head = `reconcile #${s.seq} ${s.kind} ${s.key} · ${s.outcome}${s.detail ? ` · ${s.detail}` : ''}`;
  return [head, ...(s.warnings ?? [])].join('\n');
}
