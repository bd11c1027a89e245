import type { KubeList, KubeObject, WatchEvent } from '../shared/k8s.ts';
import type { TextTransform } from './transforms.ts';

// The only seam between the informer and a backend: a real API server over HTTP (src/kube), the
// simulated cluster in process (src/sim), or a test's scripted source. Everything above it — the
// reflector, the DeltaFIFO, the cache — is the same code for every backend.

export interface ListOptions {
  /** Unset: a consistent (most recent) read. '0': any version, possibly stale. */
  resourceVersion?: string;
  resourceVersionMatch?: 'NotOlderThan' | 'Exact';
  limit?: number;
  continue?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

export interface WatchOptions {
  /** Deliver every change after this version. '0' or unset: synthetic ADDED for current objects first. */
  resourceVersion?: string;
  resourceVersionMatch?: 'NotOlderThan' | 'Exact';
  allowWatchBookmarks?: boolean;
  /** Streaming list: initial ADDED events, then a BOOKMARK annotated k8s.io/initial-events-end. */
  sendInitialEvents?: boolean;
  timeoutSeconds?: number;
  labelSelector?: string;
  fieldSelector?: string;
}

/** Receives one watch stream's events in server order, then exactly one `close`. */
export interface WatchSink<T extends KubeObject = KubeObject> {
  event(event: WatchEvent<T>): void;
  /** The stream ended: cleanly (no error), or with a transport/decoding error. Called once. */
  close(error?: Error): void;
}

export interface WatchHandle {
  /** Ends the stream now. No `event` is delivered after `stop` returns; `close` is not called. */
  stop(): void;
}

/**
 * Marks a list whose items a backend already passed through `prepareItem` (see ListerWatcher.list):
 * the informer does not transform them again.
 */
export const ITEMS_PREPARED: unique symbol = Symbol('controller-lab.itemsPrepared');

export interface ListerWatcher<T extends KubeObject = KubeObject> {
  /**
   * One page of a list. Rejects with ApiError (e.g. 410 for an expired continue token).
   * `prepareItem` (the informer's transform): a backend that decodes items one at a time may apply
   * it to each as it is decoded, so a large list never holds every untransformed item at once; it
   * then sets `[ITEMS_PREPARED]: true` on the list. A backend may ignore it.
   * `prepareText` (the transform's text form, see TextTransform): a backend that parses JSON may
   * apply it to each item's text before parsing it; `prepareItem` still follows.
   */
  list(options: ListOptions, signal?: AbortSignal, prepareItem?: (item: T) => T, prepareText?: TextTransform): Promise<KubeList<T> & { [ITEMS_PREPARED]?: boolean }>;
  /**
   * Opens a watch. Resolves once the server accepted it (HTTP 200); rejects with ApiError when the
   * server refused it (an HTTP 410 among them). A 410 inside an accepted stream arrives as an ERROR
   * event carrying a Status.
   * `prepareText`: a backend that parses JSON may apply it to each event's text before parsing it
   * (the informer's transform still runs on the object).
   */
  watch(options: WatchOptions, sink: WatchSink<T>, signal?: AbortSignal, prepareText?: TextTransform): Promise<WatchHandle>;
}
