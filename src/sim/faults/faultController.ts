import type { Clock } from '../../shared/clock.ts';
import type { DeliveryGate } from '../store/deliveryGate.ts';
import type { FaultControls, FaultState, HttpFaultSettings, WatchScope } from './faultControls.ts';
import { Coalescing } from './coalescing.ts';
import { FaultHistory, type AppliedFault } from './faultHistory.ts';
import { StaleViews } from './staleView.ts';
import { GlobalGate, UserGates } from './userGates.ts';
import { qualifiedResource } from '../../shared/k8s.ts';

// The fault switches. Delivery faults are read by every watcher at delivery time, through its gate
// (userGates.ts); actions that need the cluster (ending watches, compacting, restarting) are callbacks.

export interface FaultActions {
  dropWatches(scope: WatchScope): number;
  expireWatches(scope: WatchScope, discardWithheld: boolean): number;
  compact(rv?: number): number;
  restart(options?: { dropHistory?: boolean }): void;
  /** Watchers (all, or one user's) look at their queues again (a delay was lifted, events released). */
  wakeWatchers(user?: string): void;
  /** Watchers (all, or one user's) send the events they hold for coalescing. */
  releaseHeld(user?: string): void;
}

const HTTP_OFF: HttpFaultSettings = { errorRate: 0, errorCode: 500, retryAfterSeconds: 1, latencyMs: 0, pathFilter: '' };

export class FaultController implements FaultControls {
  /** The switches on every watch. */
  readonly gate = new GlobalGate();
  private readonly coalescing = new Coalescing();
  private readonly staleViews: StaleViews;
  private readonly users: UserGates;
  private readonly applied = new FaultHistory();
  private readonly conflicts = new Set<string>();
  private http: HttpFaultSettings = { ...HTTP_OFF };
  private readonly listeners = new Set<() => void>();
  private readonly actions: FaultActions;
  private readonly clock: Clock;

  constructor(actions: FaultActions, clock: Clock) {
    this.actions = actions;
    this.clock = clock;
    this.staleViews = new StaleViews(clock, (user) => {
      this.actions.wakeWatchers(user);
      this.changed();
    });
    this.users = new UserGates(this.gate, this.coalescing, this.staleViews);
  }

  static conflictKey(group: string, resource: string, key: string): string {
    return `${qualifiedResource({ group, resource })}/${key}`;
  }

  /** The gate of a watch made as `user` (as nobody: the global one). */
  gateFor(user: string | undefined): DeliveryGate {
    return this.users.gateFor(user);
  }

  /** The resourceVersion `user`'s lists are answered as of, while a stale view lasts. */
  staleViewOf(user: string | undefined): number | undefined {
    return user === undefined ? undefined : this.staleViews.of(user);
  }

  dropWatches(resource?: string, user?: string): number {
    const n = this.actions.dropWatches({ resource, user });
    this.changed();
    return n;
  }

  expireWatches(scope: WatchScope & { discardWithheld?: boolean }): number {
    const n = this.actions.expireWatches({ resource: scope.resource, user: scope.user }, scope.discardWithheld === true);
    this.changed();
    return n;
  }

  compact(rv?: number | 'now'): number {
    const n = this.actions.compact(rv === 'now' ? undefined : rv);
    this.changed();
    return n;
  }

  delayEvents(ms: number, user?: string): void {
    if (user === undefined) this.gate.eventDelayMs = Math.max(0, ms);
    else this.users.delay(user, ms);
    this.actions.wakeWatchers(user);
    this.changed();
  }

  withholdEvents(user?: string): void {
    if (user === undefined) this.gate.eventsWithheld = true;
    else this.users.withhold(user, true);
    this.changed();
  }

  releaseEvents(user?: string): void {
    if (user === undefined) {
      this.gate.eventsWithheld = false;
      this.users.releaseAll();
      this.actions.wakeWatchers();
    } else {
      this.users.withhold(user, false);
      this.actions.wakeWatchers(user);
    }
    this.changed();
  }

  withholdBookmarks(): void {
    this.gate.bookmarksWithheld = true;
    this.changed();
  }

  releaseBookmarks(): void {
    this.gate.bookmarksWithheld = false;
    this.changed();
  }

  coalesceEvents(rule: { user: string; resource: string; key: string; count: number; releaseAfterMs: number }): void {
    this.coalescing.add(rule);
    this.changed();
  }

  staleView(user: string, resourceVersion: number, forMs: number): void {
    this.staleViews.arm(user, resourceVersion, forMs);
    this.changed();
  }

  conflictNextUpdate(resource: { group: string; resource: string }, namespace: string, name: string): void {
    this.conflicts.add(FaultController.conflictKey(resource.group, resource.resource, namespace ? `${namespace}/${name}` : name));
    this.changed();
  }

  /** True (once) when a conflict is armed for this object. */
  consumeConflict(group: string, resource: string, key: string): boolean {
    const k = FaultController.conflictKey(group, resource, key);
    if (!this.conflicts.delete(k)) return false;
    this.changed();
    return true;
  }

  restart(options: { dropHistory?: boolean } = {}): void {
    this.actions.restart(options);
    this.changed();
  }

  setHttp(settings: Partial<HttpFaultSettings>): void {
    this.http = { ...this.http, ...settings };
    this.changed();
  }

  reset(): void {
    Object.assign(this.gate, { eventDelayMs: 0, eventsWithheld: false, bookmarksWithheld: false });
    this.users.clear();
    this.staleViews.clear();
    this.coalescing.clear();
    this.actions.releaseHeld();
    this.http = { ...this.http, errorRate: 0, latencyMs: 0, pathFilter: '' };
    this.actions.wakeWatchers();
    this.changed();
  }

  state(): FaultState {
    const { eventDelayMs, eventsWithheld, bookmarksWithheld } = this.gate;
    return {
      eventDelayMs, eventsWithheld, bookmarksWithheld, pendingConflicts: [...this.conflicts], http: { ...this.http },
      users: this.users.state(), coalescing: this.coalescing.state(), staleViews: this.staleViews.state(),
    };
  }

  recordApplied(name: string, args: Readonly<Record<string, unknown>>, resourceVersion: number): void {
    this.applied.add({ name, args: { ...args }, resourceVersion, at: this.clock.now() });
  }

  history(): AppliedFault[] {
    return this.applied.all();
  }

  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const l of [...this.listeners]) l();
  }
}
