// Reconcile spans on the timeline (the causal chain). The host turns each reconcile
// record of a running controller into a span; the webview draws it as a bar on a "reconcile" lane per
// controller key and lists its trigger events and its writes, each linked by resourceVersion to the
// timeline event it names (when an informer in the lab saw it). Plain data + guards, like timeline.ts.

import type { NotificationType, TimelineEvent } from './timeline.ts';
import { splitKey } from '../keys.ts';

export interface SpanTrigger {
  type: string;
  kind: string;
  /** namespace/name or name. */
  key: string;
  resourceVersion: string;
  via: string;
  at: number;
}

export interface SpanWrite {
  verb: string;
  kind: string;
  namespace: string;
  name: string;
  resourceVersion?: string;
  error?: string;
  at: number;
}

export type SpanOutcome = 'running' | 'success' | 'error';

export interface ReconcileSpan {
  /** The runtime's reconcileId: stable across the start and end updates of one reconcile. */
  id: string;
  /** `#17` in the debugger. */
  seq: number;
  controller: string;
  /** The request's kind (the controller's `for`) and key. */
  kind: string;
  key: string;
  startedAt: number;
  /** Undefined while it runs. */
  endedAt?: number;
  outcome: SpanOutcome;
  /** The error message, or the requeue decision in words. */
  detail: string;
  triggers: SpanTrigger[];
  writes: SpanWrite[];
  /** What the reconcile should not have done, in words (a read of a cache older than its controller's own write). */
  warnings?: string[];
}

export interface SpansParams {
  /** New or updated spans (an update replaces the span with the same id). */
  spans: ReconcileSpan[];
  /** Start over: drop every span the webview holds first. */
  reset?: boolean;
}

export const SpansNotification: NotificationType<'timeline/spans', SpansParams> = { kind: 'notification', method: 'timeline/spans' };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Checks a span from the host (the webview is a separate trust domain; so is the host from it). */
export function isReconcileSpan(value: unknown): value is ReconcileSpan {
  return (
    isRecord(value) &&
    typeof value['id'] === 'string' &&
    typeof value['key'] === 'string' &&
    typeof value['controller'] === 'string' &&
    typeof value['startedAt'] === 'number' &&
    (value['endedAt'] === undefined || typeof value['endedAt'] === 'number') &&
    (value['outcome'] === 'running' || value['outcome'] === 'success' || value['outcome'] === 'error') &&
    Array.isArray(value['triggers']) &&
    Array.isArray(value['writes']) &&
    (value['warnings'] === undefined || (Array.isArray(value['warnings']) && value['warnings'].every((w) => typeof w === 'string')))
  );
}

export function isSpansParams(value: unknown): value is SpansParams {
  return isRecord(value) && Array.isArray(value['spans']) && value['spans'].every(isReconcileSpan);
}

/** The lane of a controller's reconciles of one key. */
export function spanLaneKey(span: Pick<ReconcileSpan, 'controller' | 'key'>): string {
  return `reconcile:${span.controller}:${span.key}`;
}

/**
 * The timeline event a trigger or a write names: same object (namespace and name) and the same
 * resourceVersion. `candidates` are the events with that resourceVersion (the webview indexes them).
 */
export function findLinkedEvent(
  target: { namespace: string; name: string; resourceVersion?: string },
  candidates: readonly TimelineEvent[],
): TimelineEvent | undefined {
  if (!target.resourceVersion) return undefined;
  return candidates.find((e) => e.resourceVersion === target.resourceVersion && e.name === target.name && e.namespace === target.namespace);
}

export function triggerTarget(t: SpanTrigger): { namespace: string; name: string; resourceVersion: string } {
  return { ...splitKey(t.key), resourceVersion: t.resourceVersion };
}
