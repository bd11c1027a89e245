import type { EventFate } from '../../runtime/index.ts';

// Events that reached a controller and enqueued nothing at any of its sources: the misses the
// timeline draws, with why on hover. An event's fates arrive one per source (and per request),
// close together but not at once (a Go manager delivers to each source on its own goroutine), so
// they are gathered for a moment, in two generations swept by one timer: an event is judged once
// no fate of it can still be on its way.

/** How long an event's fates are gathered before it is judged. */
export const GATHER_MS = 200;

export interface MissedEvent {
  controller: string;
  type: EventFate['type'];
  apiVersion: string;
  kind: string;
  key: string;
  resourceVersion: string;
  at: number;
  /** One per source: why it enqueued nothing. */
  reasons: string[];
}

const VIA = { for: 'For', owns: 'Owns', watches: 'Watches' } as const;

/** Why one source enqueued nothing, in the words of "why not?". */
export function missReason(fate: EventFate): string {
  const via = VIA[fate.via];
  return fate.fate === 'filtered' ? `filtered by ${fate.predicate ?? 'a predicate'} (${via})` : `mapped to no request (${via})`;
}

/** What the marker says on hover. */
export function missNote(miss: MissedEvent): string {
  return `${miss.controller} enqueued nothing: ${miss.reasons.join('; ')}`;
}

interface Gathered {
  first: EventFate;
  reasons: string[];
  enqueued: boolean;
}

export class MissedEvents {
  private current = new Map<string, Gathered>();
  private previous = new Map<string, Gathered>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly onMiss: (miss: MissedEvent) => void;
  private readonly gatherMs: number;

  constructor(onMiss: (miss: MissedEvent) => void, gatherMs = GATHER_MS) {
    this.onMiss = onMiss;
    this.gatherMs = gatherMs;
  }

  add(fate: EventFate): void {
    // A resync re-delivers what the cache holds: not a change, and not drawn.
    if (fate.type === 'RESYNC') return;
    const id = `${fate.controller}\0${fate.kind}\0${fate.key}\0${fate.resourceVersion}\0${fate.type}`;
    let g = this.current.get(id) ?? this.previous.get(id);
    if (!g) {
      g = { first: fate, reasons: [], enqueued: false };
      this.current.set(id, g);
    }
    if (fate.fate === 'filtered' || fate.fate === 'unmapped') g.reasons.push(missReason(fate));
    else g.enqueued = true;
    this.timer ??= setInterval(() => this.sweep(), this.gatherMs);
  }

  /** Judges every event gathered so far (the timer does it for the older generation). */
  flush(): void {
    this.sweep();
    this.sweep();
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.current.clear();
    this.previous.clear();
  }

  private sweep(): void {
    const judged = this.previous;
    this.previous = this.current;
    this.current = new Map();
    for (const g of judged.values()) {
      if (g.enqueued) continue;
      const f = g.first;
      this.onMiss({ controller: f.controller, type: f.type, apiVersion: f.apiVersion, kind: f.kind, key: f.key, resourceVersion: f.resourceVersion, at: f.at, reasons: g.reasons });
    }
    if (this.previous.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}
