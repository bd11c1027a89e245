import type { DeliveryGate } from '../store/deliveryGate.ts';
import type { Coalescing } from './coalescing.ts';
import type { StaleViews } from './staleView.ts';

// The delivery faults, on every watch (the global switches) or on the watches of one user: what
// the request of the watch was authenticated as (or impersonated). A watcher's gate combines both:
// its events are withheld while either withholds them, delayed by the longer delay, and held for
// coalescing by its user's rules. Watches made in process name no user: only global faults reach them.

/** The switches on every watch. */
export class GlobalGate implements DeliveryGate {
  eventDelayMs = 0;
  eventsWithheld = false;
  bookmarksWithheld = false;
  readonly holding = false;
  holdFor(): undefined {
    return undefined;
  }
}

export interface UserSwitchState {
  eventDelayMs: number;
  eventsWithheld: boolean;
}

export class UserGates {
  private readonly switches = new Map<string, UserSwitchState>();
  private readonly global: GlobalGate;
  private readonly coalescing: Coalescing;
  private readonly staleViews: StaleViews;

  constructor(global: GlobalGate, coalescing: Coalescing, staleViews: StaleViews) {
    this.global = global;
    this.coalescing = coalescing;
    this.staleViews = staleViews;
  }

  withhold(user: string, on: boolean): void {
    this.set(user, { eventsWithheld: on });
  }

  delay(user: string, ms: number): void {
    this.set(user, { eventDelayMs: Math.max(0, ms) });
  }

  /** Lifts every user's hold (their delays stay). */
  releaseAll(): void {
    for (const user of [...this.switches.keys()]) this.withhold(user, false);
  }

  /** Turns every user's switches off. */
  clear(): void {
    this.switches.clear();
  }

  state(): Record<string, UserSwitchState> {
    return Object.fromEntries([...this.switches].map(([user, s]) => [user, { ...s }]));
  }

  /** The gate of a watch made as `user` (the global one for a watch made as nobody). */
  gateFor(user: string | undefined): DeliveryGate {
    if (user === undefined) return this.global;
    const { global, switches, coalescing, staleViews } = this;
    return {
      get eventDelayMs() {
        return Math.max(global.eventDelayMs, switches.get(user)?.eventDelayMs ?? 0);
      },
      get eventsWithheld() {
        return global.eventsWithheld || switches.get(user)?.eventsWithheld === true || staleViews.of(user) !== undefined;
      },
      get bookmarksWithheld() {
        return global.bookmarksWithheld;
      },
      get holding() {
        return coalescing.holdingFor(user);
      },
      holdFor: (resource, key, resourceVersion) => coalescing.holdFor(user, resource, key, resourceVersion),
    };
  }

  private set(user: string, change: Partial<UserSwitchState>): void {
    const next = { eventDelayMs: 0, eventsWithheld: false, ...this.switches.get(user), ...change };
    if (next.eventDelayMs === 0 && !next.eventsWithheld) this.switches.delete(user);
    else this.switches.set(user, next);
  }
}
