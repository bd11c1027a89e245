import type { DeliveryGate } from '../store/watcher.ts';
import type { FaultControls, FaultState, HttpFaultSettings } from './faultControls.ts';
import { qualifiedResource } from '../../shared/k8s.ts';

// The fault switches. Delivery faults are read by every watcher at delivery time (the gate);
// actions that need the cluster (dropping watches, compacting, restarting) are callbacks.

export interface FaultActions {
  dropWatches(resource?: string): number;
  compact(rv?: number): number;
  restart(options?: { dropHistory?: boolean }): void;
  /** Watchers look at their queues again (a delay was lifted, events released). */
  wakeWatchers(): void;
}

export class FaultController implements FaultControls {
  readonly gate: DeliveryGate = { eventDelayMs: 0, eventsWithheld: false, bookmarksWithheld: false };
  private readonly conflicts = new Set<string>();
  private http: HttpFaultSettings = { errorRate: 0, errorCode: 500, retryAfterSeconds: 1, latencyMs: 0, pathFilter: '' };
  private readonly listeners = new Set<() => void>();
  private readonly actions: FaultActions;

  constructor(actions: FaultActions) {
    this.actions = actions;
  }

  static conflictKey(group: string, resource: string, key: string): string {
    return `${qualifiedResource({ group, resource })}/${key}`;
  }

  dropWatches(resource?: string): number {
    const n = this.actions.dropWatches(resource);
    this.changed();
    return n;
  }

  compact(rv?: number | 'now'): number {
    const n = this.actions.compact(rv === 'now' ? undefined : rv);
    this.changed();
    return n;
  }

  delayEvents(ms: number): void {
    this.gate.eventDelayMs = Math.max(0, ms);
    this.actions.wakeWatchers();
    this.changed();
  }

  withholdEvents(): void {
    this.gate.eventsWithheld = true;
    this.changed();
  }

  releaseEvents(): void {
    this.gate.eventsWithheld = false;
    this.actions.wakeWatchers();
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

  state(): FaultState {
    return { ...this.gate, pendingConflicts: [...this.conflicts], http: { ...this.http } };
  }

  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const l of [...this.listeners]) l();
  }
}
