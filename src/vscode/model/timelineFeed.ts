import type { ReconcileSpan } from '../../shared/protocol/reconcileSpans.ts';
import { EventRing } from './eventRing.ts';

// What the timeline shows, in one place owned by the lab: the watch events of every informer (a
// bounded ring) and the reconcile spans of running controllers (the newest, bounded). Informers
// and controllers publish into it; the timeline panel subscribes and, when it (re)starts, reads it
// whole. Nothing here knows about webviews.

/** Reconcile spans kept (a new timeline gets them all). */
export const MAX_SPANS = 5000;

export class TimelineFeed {
  readonly events: EventRing;
  private readonly spansById = new Map<string, ReconcileSpan>();
  private readonly spanListeners = new Set<(spans: readonly ReconcileSpan[]) => void>();

  constructor(maxEvents: number) {
    this.events = new EventRing(maxEvents);
  }

  /** A new or updated span (the end of a reconcile replaces its start). */
  putSpan(span: ReconcileSpan): void {
    this.spansById.delete(span.id);
    this.spansById.set(span.id, span);
    if (this.spansById.size > MAX_SPANS) {
      const oldest = this.spansById.keys().next().value;
      if (oldest !== undefined) this.spansById.delete(oldest);
    }
    for (const listener of this.spanListeners) listener([span]);
  }

  /** Spans held, oldest first. */
  spans(): ReconcileSpan[] {
    return [...this.spansById.values()];
  }

  /** After every event pushed (cheap: the panel only schedules a flush). */
  onDidPushEvent(listener: () => void): () => void {
    return this.events.onDidPush(listener);
  }

  onDidPutSpans(listener: (spans: readonly ReconcileSpan[]) => void): () => void {
    this.spanListeners.add(listener);
    return () => this.spanListeners.delete(listener);
  }

  /** Forgets events and spans (the timeline's Clear). */
  clear(): void {
    this.events.clear();
    this.spansById.clear();
  }
}
