import type { CoalesceState } from './coalescing.ts';
import type { AppliedFault } from './faultHistory.ts';
import type { StaleViewState } from './staleView.ts';
import type { UserSwitchState } from './userGates.ts';

// The switches a fault flips, as the cluster exposes them in process (`cluster.faults`). Every
// other surface — the admin endpoint, `controller-lab sim fault`, scenario steps — reaches them
// through the fault table (faultTable.ts), by one name per fault.
//
// Watch faults may be aimed at one user: only the watches whose request was authenticated as that
// user (or impersonated it) are affected; the others go on as before.

export type { AppliedFault, CoalesceState, StaleViewState, UserSwitchState };

/** Faults the HTTP layer applies; they are set as every other fault is. */
export interface HttpFaultSettings {
  /** 0..1: share of requests answered with `errorCode` instead of being served. */
  errorRate: number;
  /** 429 (with Retry-After) or 500. */
  errorCode: 429 | 500;
  retryAfterSeconds: number;
  /** Extra latency added to every response, ms. */
  latencyMs: number;
  /** Only requests whose path contains this string are affected ('' = all). */
  pathFilter: string;
}

/** What faults are active right now (for the admin endpoint and the views). */
export interface FaultState {
  /** ms added before each watch event is delivered (0 = none). */
  eventDelayMs: number;
  /** Events are held back (in order) until `releaseEvents()`. */
  eventsWithheld: boolean;
  /** Bookmarks are not sent until `releaseBookmarks()`. */
  bookmarksWithheld: boolean;
  /** Keys (`resource.group/ns/name`) whose next update answers 409 Conflict. */
  pendingConflicts: string[];
  http: HttpFaultSettings;
  /** The delay and withholding of the users whose watches have their own. */
  users: Record<string, UserSwitchState>;
  /** The objects whose events are coalesced for a user. */
  coalescing: CoalesceState[];
  /** The users whose view of the cluster lags. */
  staleViews: StaleViewState[];
}

/** Which watches a fault ends: all, or those of a resource, of a user, or both. */
export interface WatchScope {
  /** `plural` or `plural.group`. */
  resource?: string;
  user?: string;
}

/** Fault injection: what a real API server does to its clients now and then, on demand. */
export interface FaultControls {
  /** Ends every open watch in scope cleanly. Returns how many. */
  dropWatches(resource?: string, user?: string): number;
  /**
   * Ends every open watch in scope with the 410 Expired event a compacted resume gets (clients
   * relist). What the watches hold back is sent first, or dropped with `discardWithheld`. Returns how many.
   */
  expireWatches(scope: WatchScope & { discardWithheld?: boolean }): number;
  /** Drops history before `rv` ('now' or unset: the current RV): resumes from older RVs get 410. Returns the compacted RV. */
  compact(rv?: number | 'now'): number;
  /** Delays every watch event (and bookmark), or the events of one user's watches, by `ms`; 0 turns it off. */
  delayEvents(ms: number, user?: string): void;
  /** Holds every watch event back, or those of one user's watches, until `releaseEvents`. */
  withholdEvents(user?: string): void;
  /** Delivers what is held back, in order: everything, or what one user's hold holds (a hold on every watch stays). */
  releaseEvents(user?: string): void;
  withholdBookmarks(): void;
  releaseBookmarks(): void;
  /**
   * For `user`'s watches of one object: each of its next `count` events is held until a later
   * event of the object replaces it, or sent as it is after `releaseAfterMs`.
   */
  coalesceEvents(rule: { user: string; resource: string; key: string; count: number; releaseAfterMs: number }): void;
  /**
   * For `forMs`, `user`'s lists are answered as of `resourceVersion` and its watch events are
   * withheld (then delivered in order): a lagging API server's view.
   */
  staleView(user: string, resourceVersion: number, forMs: number): void;
  /** The next update/patch/delete of this object answers 409 Conflict (once). */
  conflictNextUpdate(resource: { group: string; resource: string }, namespace: string, name: string): void;
  /**
   * A restart keeping state: every watch ends, RVs keep rising. History is kept unless
   * `dropHistory` (then, like a real apiserver's fresh watch cache, resumes from before get 410).
   */
  restart(options?: { dropHistory?: boolean }): void;
  /** Sets the HTTP faults (merged into the current settings). */
  setHttp(settings: Partial<HttpFaultSettings>): void;
  /** Turns every delivery fault off (global and per user), releasing what they hold, and the HTTP faults. */
  reset(): void;
  state(): FaultState;
  /** Notes a fault the table applied (name, arguments, the cluster's resourceVersion then). */
  recordApplied(name: string, args: Readonly<Record<string, unknown>>, resourceVersion: number): void;
  /** The faults the table applied, oldest first. */
  history(): AppliedFault[];
  onDidChange(listener: () => void): () => void;
}
