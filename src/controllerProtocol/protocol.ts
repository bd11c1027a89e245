import type { KubeObject } from '../shared/k8s.ts';
import type { Probe } from '../informer/index.ts';
import type { KindRef } from './api.ts';
import type { HandledResource } from './handledViews.ts';
import type { EventFate, LogLine, QueueSnapshot, ReconcileRecord, StaleRead, WriteRecord } from './records.ts';
import type { ReconcileOutcome, RequeueDecision } from './reconcileOutcome.ts';

// The IPC contract between the parent (CLI runner, debug adapter, extension) and the controller
// host child. Every message is a plain JSON object with a `type`; the unions below are the whole
// vocabulary, and the guards keep a stray message (or an older child) from being misread.

/**
 * How the host gets at the user's code. `bundle`: moduleFile is one self-contained ESM file that
 * esbuild wrote, with an inline source map back to the user's files. `typeStripping` (no esbuild):
 * moduleFile is the user's own entry file; the host first registers module hooks that map
 * `controller-lab` to its API, resolve TypeScript-style relative imports and erase types.
 */
export type ControllerLoader = 'bundle' | 'typeStripping';

export interface HostInit {
  type: 'init';
  /** The module the host imports: the bundle, or the user's entry file itself (see loader). */
  moduleFile: string;
  /** The user's source file, for messages. */
  sourceFile: string;
  loader: ControllerLoader;
  kubeconfig: string;
  context?: string;
  /** Overrides the controller's maxConcurrentReconciles. */
  workers?: number;
  reconcileTimeoutMs: number;
  /** Ask the parent before every reconcile (the debugger's gate). */
  gated: boolean;
  /** Forward every cached object so the parent can rebuild the cache as of any reconcile. */
  mirrorCache: boolean;
  /**
   * Send `heartbeat` this often (ms), from a timer: a host whose event loop is blocked (a
   * synchronous infinite loop) falls silent and the parent stops it. Absent: no heartbeats, and
   * the parent cannot tell a blocked host from an idle one.
   */
  heartbeatMs?: number;
  /**
   * Seeds the informers' jitter (backoff, relist pacing, watch timeouts): a check's run and its
   * replay draw the same delays. Absent: Math.random, as client-go.
   */
  jitterSeed?: number;
  /**
   * A restarted host: keys whose reconcile blocked or killed the previous host. Each waits
   * `delayMs` before it is reconciled again (the initial list does not enqueue it sooner). One that
   * did so `failures` ≥ 2 times counts as failing meanwhile (see `settled`); after a first failure
   * it is worth waiting for its retry.
   */
  holdBack?: HeldKey[];
  /** A restarted host continues the numbering: its first reconcile is `reconcileSeq + 1`. */
  reconcileSeq?: number;
  /** ... and its first cache delta `deltaSeq + 1`. */
  deltaSeq?: number;
}

export interface HeldKey {
  key: string;
  delayMs: number;
  /** How many hosts this key's reconcile took down so far. Absent: 1. */
  failures?: number;
}

export type ParentMessage =
  | HostInit
  /** The gate opens for one reconcile. */
  /** `stepIn`: open the inspector if needed and pause in the JavaScript debugger before reconcile. */
  | { type: 'proceed'; reconcileId: string; stepIn?: boolean }
  /** Stop the informers and workers, then exit. */
  | { type: 'shutdown' }
  /** Reconcile every object of each controller's For kind again, as a resync or a restart would. */
  | { type: 'resync' }
  /** A Go program's held write (see `write`) goes on. */
  | { type: 'writeSeen'; reconcileId: string; index: number };

export interface ControllerShape {
  name: string;
  forKind: KindRef;
  owns: KindRef[];
  watches: KindRef[];
  workers: number;
  /** A Go controller's Reconcile: its symbol as Delve names it, and where its code starts. */
  reconciler?: { function: string; file?: string; line?: number };
}

export type CacheDeltaType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface CacheDelta {
  /** Increases by one per delta; a reconcile's cacheSeq says which deltas it had seen. */
  seq: number;
  type: CacheDeltaType;
  apiVersion: string;
  kind: string;
  key: string;
  resourceVersion: string;
  /** The object after the event (for DELETED: its last state). Only sent when mirroring. */
  object?: KubeObject;
}

export interface ReconcileEnd {
  reconcileId: string;
  seq: number;
  durationMs: number;
  writes: WriteRecord[];
  outcome: ReconcileOutcome;
  decision: RequeueDecision;
  staleReads?: StaleRead[];
}

export type HostMessage =
  /** The controller's module has loaded (a TypeScript host; before it connects to the cluster). */
  | { type: 'loaded' }
  | { type: 'ready'; controller: ControllerShape }
  | { type: 'fatal'; phase: 'load' | 'connect' | 'run'; message: string; stack?: string }
  | { type: 'synced' }
  | { type: 'delta'; delta: CacheDelta }
  /**
   * A Go program under a line debugger (CONTROLLER_LAB_HOLD_WRITES): a reconcile's write was
   * acknowledged; `goroutine` waits in the client call until `writeSeen`.
   */
  | { type: 'write'; reconcileId: string; seq: number; index: number; write: WriteRecord; goroutine: number }
  /** Sent before the reconcile runs; when gated the worker waits for `proceed`. */
  | { type: 'reconcileStart'; record: ReconcileRecord; gated: boolean }
  | { type: 'reconcileEnd'; end: ReconcileEnd }
  /** `uncaught`: an exception or rejection nobody caught (user code outside any reconcile's await chain). */
  | { type: 'log'; reconcileId?: string; line: LogLine; uncaught?: boolean }
  /** `controller`: whose queue (a Go manager runs several controllers, each with its own queue). */
  | { type: 'queue'; snapshot: QueueSnapshot; controller?: string }
  | { type: 'probe'; probe: Probe }
  /** What became of a watch event at one of the controller's sources (one per source and request). */
  | { type: 'fate'; fate: EventFate }
  /** Many fates in one string (fateBatch.ts), as the hosts send them: `count` fates. */
  | { type: 'fates'; data: string; count: number }
  /** The inspector opened on request (step in): a JavaScript debugger may attach at `url`. */
  | { type: 'inspector'; url: string }
  /** Every HostInit.heartbeatMs while the host's event loop runs. */
  | { type: 'heartbeat' }
  /** Several messages in order, as if sent one by one (the JavaScript host batches logs, deltas, queue, probes). */
  | { type: 'batch'; messages: HostMessage[] }
  /**
   * Idle: nothing queued, processing, delayed or backing off. Settled: nothing queued or
   * processing, and every waiting key waits for the retry of a failed reconcile or for the
   * requeueAfter of a reconcile that wrote nothing (only failures and periodic resyncs are left).
   * Sent whenever either changes; a host that never sends `settled` is settled when idle.
   */
  | { type: 'idle'; idle: boolean; settled?: boolean }
  /**
   * What the event handlers have been given (handledViews.ts), for every resource an informer with
   * handlers watches; sent when it changes, after the handlers returned (what they enqueued is in
   * the queue messages before it). A host that never sends it is taken to keep up.
   */
  | { type: 'handled'; resources: HandledResource[] };

const HOST_TYPES = new Set<HostMessage['type']>(['loaded', 'ready', 'fatal', 'synced', 'delta', 'reconcileStart', 'reconcileEnd', 'log', 'queue', 'probe', 'fate', 'fates', 'inspector', 'idle', 'heartbeat', 'batch', 'write', 'handled']);
const PARENT_TYPES = new Set<ParentMessage['type']>(['init', 'proceed', 'shutdown', 'resync', 'writeSeen']);

export function isHostMessage(m: unknown): m is HostMessage {
  return typeof m === 'object' && m !== null && HOST_TYPES.has((m as { type: HostMessage['type'] }).type);
}

export function isParentMessage(m: unknown): m is ParentMessage {
  return typeof m === 'object' && m !== null && PARENT_TYPES.has((m as { type: ParentMessage['type'] }).type);
}
