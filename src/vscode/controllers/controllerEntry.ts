import type { QueueSnapshot, ReconcileRecord } from '../../runtime/index.ts';
import type { InformerStats } from './informerStats.ts';

// What the views know of one controller session: its state, counts, informers and queue.

export type ControllerState = 'starting' | 'syncing' | 'running' | 'reconciling' | 'paused' | 'idle' | 'failed' | 'exited';

export interface ControllerEntry {
  id: string;
  /** The controllers' names (a Go manager's several controllers: "configs, secrets"). */
  name: string;
  controllers: string[];
  file?: string;
  /** Its cluster's API server URL, when its kubeconfig names one. */
  server?: string;
  state: ControllerState;
  paused: boolean;
  idle: boolean;
  synced: boolean;
  reconciles: number;
  errors: number;
  inFlight: Map<string, ReconcileRecord>;
  informers: Map<string, InformerStats>;
  queue: QueueSnapshot;
  exit?: string;
  failed?: boolean;
  startedAt: number;
}

/** Ended sessions stay listed under "Finished" so a crash can be read; this many at most. */
export const KEEP_ENDED = 3;

export const EMPTY_QUEUE: QueueSnapshot = { at: 0, depth: 0, processing: 0, waiting: 0, keys: [] };

export function hasEnded(e: ControllerEntry): boolean {
  return e.state === 'exited' || e.state === 'failed';
}

export function stateOf(e: ControllerEntry): ControllerState {
  if (e.state === 'exited' || e.state === 'failed') return e.state;
  if (e.paused) return 'paused';
  if (!e.synced) return e.state === 'starting' ? 'starting' : 'syncing';
  if (e.inFlight.size > 0) return 'reconciling';
  return e.idle ? 'idle' : 'running';
}
