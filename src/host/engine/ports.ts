import type { KubeObject } from '../../shared/k8s.ts';
import type { DeleteOptions, KindRef, QueueKeyState, QueueSnapshot } from '../../controllerProtocol/index.ts';
import type { RequeueTarget } from './reconcileHandler.ts';

// The narrow interfaces the controller loop needs from the informer, the workqueue and the API
// client: the engine (this folder) imports none of those. The host's adapters bind them to the real
// ones (../informerAdapter.ts, ../queueAdapter.ts, ../clusterBinding.ts); tests bind them to fakes.

export type InformerEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface InformerEvent {
  type: InformerEventType;
  object: KubeObject;
  /** For MODIFIED: the previous cached object. */
  old?: KubeObject;
}

export interface KindInformer {
  readonly kind: KindRef;
  /** The resource it watches as the cluster names it (`plural` or `plural.group`), for the handled report. */
  readonly resource?: string;
  /** Handlers registered before `start` see the initial list as ADDED events. */
  onEvent(handler: (event: InformerEvent) => void): void;
  start(): void;
  stop(): void;
  hasSynced(): boolean;
  get(key: string): KubeObject | undefined;
  list(namespace?: string): KubeObject[];
}

/** How many keys are in each state; cheap (no per-key work), so it can be read on every change. */
export interface QueueCounts {
  depth: number;
  processing: number;
  waiting: number;
}

/** Where one key is in the queue right now. */
export interface KeyState {
  state: QueueKeyState;
  /** waiting: when it becomes ready (ms since the epoch). */
  readyAt?: number;
  /** processing: added again meanwhile, so it runs once more after `done`. */
  dirty?: boolean;
}

export interface ControllerQueue extends RequeueTarget {
  add(key: string): void;
  /** Resolves with the next ready key, or undefined once shut down. */
  get(): Promise<string | undefined>;
  done(key: string): void;
  numRequeues(key: string): number;
  shutDown(): void;
  counts(): QueueCounts;
  snapshot(): QueueSnapshot;
  /** One key's state, in O(1) (undefined: not in the queue). */
  stateOf(key: string): KeyState | undefined;
  /** Called on every change of queue state (for snapshots and idle detection). */
  onChange(listener: () => void): void;
}

export interface ObjectWriter {
  create(obj: KubeObject): Promise<KubeObject>;
  update(obj: KubeObject, subresource?: 'status'): Promise<KubeObject>;
  patch(ref: { apiVersion: string; kind: string; namespace?: string; name: string }, patch: unknown, type: 'merge' | 'json' | 'strategic'): Promise<KubeObject>;
  delete(ref: { apiVersion: string; kind: string; namespace?: string; name: string }, options?: DeleteOptions): Promise<KubeObject | undefined>;
}
