import type { Clock, TimerHandle } from '../../shared/clock.ts';
import type { SimWatchEvent } from './types.ts';
import { retypedEvent } from './watchEvent.ts';

// One watcher's events held back for coalescing: the client is never shown a state of the object,
// only a later one. An event is held until the next event of the same object arrives, which is
// then sent in its place (the held one is dropped), or until its time is up, when it is sent as it
// is (so nothing waits for ever; it then goes out after the other objects' events sent meanwhile).
//
// What the client is sent in place of the two events, so that its informer ends where it would
// have had it seen both (client-go's reflector hands each event to the DeltaFIFO, whose Pop feeds
// the indexer and the handlers):
//   held ADDED,    later MODIFIED → ADDED of the latest: the object is new to the client.
//   held ADDED,    later DELETED  → DELETED: the DeltaFIFO drops a delete of a key neither queued
//                                   nor in its indexer, so the object never shows.
//   held MODIFIED, later MODIFIED → MODIFIED of the latest: OnUpdate(cached, latest).
//   held MODIFIED, later DELETED  → DELETED: OnDelete of the latest state.
//   held DELETED,  later ADDED    → MODIFIED of the new object: the key is still in the client's
//                                   indexer, so OnUpdate(old, new) with another uid, as a relist
//                                   that missed the delete and the create would produce.
// (ADDED after ADDED or MODIFIED cannot happen: a DELETED comes between, and is folded first.)

interface Held {
  readonly event: SimWatchEvent;
  readonly timer: TimerHandle;
}

export class HeldEvents {
  private readonly held = new Map<string, Held>();
  private readonly clock: Clock;
  private readonly release: (event: SimWatchEvent) => void;

  /** `release`: sends a held event whose time is up. */
  constructor(clock: Clock, release: (event: SimWatchEvent) => void) {
    this.clock = clock;
    this.release = release;
  }

  get size(): number {
    return this.held.size;
  }

  /**
   * The event to send now for this event of object `key`: itself, the later event folded over the
   * one held for the object, or undefined when it is held (`holdFor` says for how long, if at all).
   */
  take(event: SimWatchEvent, key: string, holdFor: () => number | undefined): SimWatchEvent | undefined {
    const prior = this.held.get(key);
    if (prior) {
      prior.timer.cancel();
      this.held.delete(key);
      return folded(prior.event, event);
    }
    const ms = holdFor();
    if (ms === undefined) return event;
    const timer = this.clock.setTimer(ms, () => {
      if (this.held.get(key)?.timer !== timer) return;
      this.held.delete(key);
      this.release(event);
    });
    this.held.set(key, { event, timer });
    return undefined;
  }

  /** Every held event, in the order they were held; none is held afterwards. */
  drain(): SimWatchEvent[] {
    const events = [...this.held.values()].map((h) => {
      h.timer.cancel();
      return h.event;
    });
    this.held.clear();
    return events;
  }

  clear(): void {
    this.drain();
  }
}

function folded(held: SimWatchEvent, later: SimWatchEvent): SimWatchEvent {
  if (later.type === 'DELETED') return later;
  return retypedEvent(held.type === 'ADDED' ? 'ADDED' : 'MODIFIED', later);
}
