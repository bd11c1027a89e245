// The switches a fault flips, as the cluster exposes them in process (`cluster.faults`). Every
// other surface — the admin endpoint, `controller-lab sim fault`, scenario steps — reaches them
// through the fault table (faultTable.ts), by one name per fault.

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
}

/** Fault injection: what a real API server does to its clients now and then, on demand. */
export interface FaultControls {
  /** Ends every open watch cleanly (optionally only one resource's, by plural or `plural.group`). Returns how many. */
  dropWatches(resource?: string): number;
  /** Drops history before `rv` ('now' or unset: the current RV): resumes from older RVs get 410. Returns the compacted RV. */
  compact(rv?: number | 'now'): number;
  /** Delays every watch event (and bookmark) by `ms`; 0 turns it off. */
  delayEvents(ms: number): void;
  /** Holds every watch event back until `releaseEvents`. */
  withholdEvents(): void;
  releaseEvents(): void;
  withholdBookmarks(): void;
  releaseBookmarks(): void;
  /** The next update/patch/delete of this object answers 409 Conflict (once). */
  conflictNextUpdate(resource: { group: string; resource: string }, namespace: string, name: string): void;
  /**
   * A restart keeping state: every watch ends, RVs keep rising. History is kept unless
   * `dropHistory` (then, like a real apiserver's fresh watch cache, resumes from before get 410).
   */
  restart(options?: { dropHistory?: boolean }): void;
  /** Sets the HTTP faults (merged into the current settings). */
  setHttp(settings: Partial<HttpFaultSettings>): void;
  state(): FaultState;
  onDidChange(listener: () => void): () => void;
}

