import type { KubeObject } from '../shared/k8s.ts';
import type { KindRef, ReconcileRequest } from './api.ts';
import type { ReconcileOutcome, RequeueDecision } from './reconcileOutcome.ts';

// What one reconcile leaves behind, and the queue state around it. Plain JSON, so records cross the
// IPC channel, land in --trace files and feed the views without conversion. The RVs on triggers and
// writes are the causal links: the timeline joins a span to the events that caused it and the
// events it caused by resourceVersion.

export type TriggerEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'RESYNC' | 'REQUEUE';

/** One informer event that enqueued this key since its last reconcile. */
export interface TriggerDelta {
  type: TriggerEventType;
  /** The object the event was about (for owns/watches, not the request's object). */
  kind: string;
  apiVersion: string;
  key: string;
  resourceVersion: string;
  /** Why it maps to this request. */
  via: 'for' | 'owns' | 'watches' | 'requeue' | 'resync';
  at: number;
}

export type WriteVerb = 'create' | 'update' | 'updateStatus' | 'patch' | 'delete';

export interface WriteRecord {
  verb: WriteVerb;
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
  /** The resourceVersion the server answered with (absent for errors and most deletes). */
  resourceVersion?: string;
  error?: { code?: number; reason?: string; message: string };
  /** The object's resourceVersion before this write, when known. */
  previousResourceVersion?: string;
  /** false: the server answered with the object unchanged (a no-op update); absent: unknown. */
  changed?: boolean;
  /** Where the controller's code called the client (a data breakpoint names the call that changed a field). */
  caller?: CallSite;
  /** A delete's object's uid, when it carried one (a delete's cache event is found by its object). */
  uid?: string;
  at: number;
  durationMs: number;
}

/** A line of the controller's code: its file (absolute, or as the Go build recorded it) and line. */
export interface CallSite {
  file: string;
  line: number;
  function?: string;
}

/**
 * A read from the controller's cache that returned an object older than one this controller's
 * process had already written (its write's answer carried a newer resourceVersion), or the object
 * still there after the process deleted it, or gone after it created it (`notFound`).
 */
export interface StaleRead {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
  readResourceVersion?: string;
  wroteResourceVersion?: string;
  /** The seq of the reconcile that wrote it (absent: a write outside any reconcile). */
  wroteBy?: number;
  verb: string;
  notFound?: boolean;
}

export interface LogLine {
  level: 'info' | 'error';
  message: string;
  fields?: Record<string, unknown>;
  at: number;
}

export type QueueKeyState = 'queued' | 'processing' | 'waiting';

export interface QueueKeySnapshot {
  key: string;
  state: QueueKeyState;
  /** Rate-limited requeues so far (numRequeues). */
  retries: number;
  /** For `waiting`: when it becomes ready (epoch ms) and why. */
  readyAt?: number;
  backoffMs?: number;
  reason?: 'backoff' | 'after';
  /** Re-added while processing: it runs again after this reconcile. */
  dirty?: boolean;
}

export interface QueueSnapshot {
  at: number;
  /** Keys ready to be handed to a worker. */
  depth: number;
  processing: number;
  waiting: number;
  /** The first keys only (queued, then processing, then waiting): at most QUEUE_SNAPSHOT_KEYS. */
  keys: QueueKeySnapshot[];
  /** How many keys the list leaves out (absent: none). The counts above are always complete. */
  omitted?: number;
}

/** A snapshot lists this many keys at most, so its cost does not grow with the queue. */
export const QUEUE_SNAPSHOT_KEYS = 200;

export interface ReconcileRecord {
  /** 1-based, in start order for this run (the `#17` in the debugger). */
  seq: number;
  reconcileId: string;
  controller: string;
  worker: number;
  forKind: KindRef;
  key: string;
  request: ReconcileRequest;
  trigger: TriggerDelta[];
  /** The cached `for` object as the reconcile saw it (undefined: not in the cache, e.g. deleted). */
  object?: KubeObject;
  objectResourceVersion?: string;
  /** The highest resourceVersion the controller's caches had seen when the reconcile started. */
  cacheResourceVersion: string;
  /** Position in the forwarded delta stream; the parent rebuilds the cache as of this point. */
  cacheSeq: number;
  startedAt: number;
  durationMs?: number;
  writes: WriteRecord[];
  logs: LogLine[];
  /** Log lines beyond the ones kept in `logs` (the parent keeps the first 1000 per reconcile). */
  droppedLogs?: number;
  outcome?: ReconcileOutcome;
  decision?: RequeueDecision;
  /** Reads of state older than this controller's own writes (see StaleRead). */
  staleReads?: StaleRead[];
  /** A held Go reconcile's goroutine (a line debugger stops in this one's Reconcile call). */
  goroutine?: number;
}

export function describeRequest(kind: string, key: string): string {
  return `${kind} ${key}`;
}

/**
 * What became of a watch event at one of a controller's sources (its for, an owns or a watches):
 * - `enqueued`: it put its request's key in the queue (`keyState` says what the key was doing:
 *   `processing`, it runs again after the current reconcile; `waiting`, it no longer waits);
 * - `merged`: the key was queued already, so its next reconcile serves this event too;
 * - `waiting`: the key waits `backoffMs` more in the rate limiter or a delay before it is queued;
 * - `filtered`: `predicate` said no;
 * - `unmapped`: its handler (an owner reference, a map function) gave no request.
 */
export type EventFateKind = 'enqueued' | 'merged' | 'waiting' | 'filtered' | 'unmapped';

export interface EventFate {
  controller: string;
  /** The event: its type (RESYNC: the informer re-delivered what it holds), object and resourceVersion. */
  type: TriggerEventType;
  apiVersion: string;
  kind: string;
  key: string;
  resourceVersion: string;
  via: 'for' | 'owns' | 'watches';
  fate: EventFateKind;
  /** The request's key (enqueued, merged, waiting). */
  request?: string;
  /** The predicate that filtered the event out, as the controller names it. */
  predicate?: string;
  keyState?: QueueKeyState;
  /** How long the key still waits (waiting; enqueued with keyState waiting: what was left). */
  backoffMs?: number;
  at: number;
}
