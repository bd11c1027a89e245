import type { WatchEventType } from '../shared/k8s.ts';

// Probes: a typed stream of what an informer observes and does, for the views and the debugger.
// Probes carry keys and resourceVersions, never whole objects, so emitting them stays cheap; a
// consumer that needs the object reads it from the informer's cache or the event itself.

export type DeltaType = 'Added' | 'Updated' | 'Deleted' | 'Replaced' | 'Sync';

interface ProbeBase {
  /** Milliseconds since the epoch, from the informer's clock. */
  at: number;
  /** Which informer: e.g. `configmaps` or `deployments.apps@default`. */
  informer: string;
}

export type Probe = ProbeBase &
  (
    | { kind: 'listStart'; resourceVersion: string | undefined }
    | { kind: 'listPage'; items: number; continued: boolean }
    /** Items of the page under way decoded so far, every LIST_ITEMS_PROBE_EVERY: a page served in one piece (a list at resourceVersion 0, from the watch cache) can take seconds. */
    | { kind: 'listItems'; items: number }
    | { kind: 'listEnd'; resourceVersion: string; items: number; durationMs: number }
    | { kind: 'watchOpen'; resourceVersion: string; timeoutSeconds: number; streaming: boolean }
    | { kind: 'watchClose'; reason: 'clean' | 'error' | 'stopped' | 'expired'; error?: string; events: number }
    | { kind: 'event'; type: WatchEventType; key: string; resourceVersion: string }
    | { kind: 'delta'; type: DeltaType; key: string; resourceVersion: string }
    | { kind: 'handler'; handler: string; type: 'add' | 'update' | 'delete'; key: string; resourceVersion: string; queued: number }
    | { kind: 'relist'; cause: string }
    | { kind: 'expired'; via: 'http' | 'event'; resourceVersion: string }
    /** `reason` NotServed: the cluster serves no such kind (a CRD not installed); the informer cannot start. */
    | { kind: 'error'; message: string; code?: number; reason?: 'NotServed' }
    | { kind: 'backoff'; delayMs: number; attempt: number }
    | { kind: 'synced'; resourceVersion: string; items: number }
    | { kind: 'stopped' }
  );

export type ProbeKind = Probe['kind'];

export type ProbeListener = (probe: Probe) => void;

/** How often (in decoded items) a large list page reports its progress. */
export const LIST_ITEMS_PROBE_EVERY = 1000;
