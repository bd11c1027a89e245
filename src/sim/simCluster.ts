import type { Clock } from '../shared/clock.ts';
import type { GroupVersionResource, KubeObject } from '../shared/k8s.ts';
import type { ListerWatcher } from '../informer/listerWatcher.ts';
import type { ResourceRegistry } from './resources/types.ts';
import type {
  ClientInsight,
  DeleteOptions,
  DeleteResult,
  FaultControls,
  ListRequest,
  ListResult,
  PatchType,
  RequestContext,
  SimWatch,
  StoredObject,
  Subresource,
  WatchListener,
  WatchRequest,
  WriteRecord,
} from './store/types.ts';

// The simulated cluster as a library: what the HTTP server (src/sim/server), the CLI, scenarios,
// the in-process ListerWatcher and the views use. Every method addresses a resource by its
// group/version/resource (the URL's parts); namespace '' means cluster-scoped or all namespaces.
// Failures throw ApiError carrying the Status kube-apiserver would send.

export interface SimClusterOptions {
  clock?: Clock;
  /** Events kept per resource for watch resumes (the watch cache's ring buffer). Default 1000. */
  watchCacheSize?: number;
  /** Interval between bookmarks on watches that allow them. Default 60 000 ms. */
  bookmarkIntervalMs?: number;
  /** When set, the state is snapshotted to `<stateDir>/state.json` (debounced) and loaded on start. */
  stateDir?: string;
  /** Debounce for snapshots. Default 500 ms. */
  persistDebounceMs?: number;
  /** Create default, kube-system, kube-public, kube-node-lease at start (default true). */
  defaultNamespaces?: boolean;
}

export interface ScenarioRunHandle {
  /** Resolves when the last step ran (or rejects with the step's error). */
  readonly done: Promise<void>;
  /** Stops scheduling further steps. */
  stop(): void;
}

export interface SimClusterApi {
  readonly clock: Clock;
  readonly resources: ResourceRegistry;
  readonly faults: FaultControls;
  readonly clients: ClientInsight;
  /** The latest resourceVersion (the global revision). */
  readonly resourceVersion: number;

  list(gvr: GroupVersionResource, request: ListRequest, ctx?: RequestContext): ListResult;
  get(gvr: GroupVersionResource, namespace: string, name: string, subresource?: Subresource, ctx?: RequestContext): StoredObject;
  /** `body.metadata.namespace` may be empty (the URL's namespace is used) but must not differ. */
  create(gvr: GroupVersionResource, namespace: string, body: KubeObject, ctx?: RequestContext): StoredObject;
  /** A PUT. With subresource 'status' only status changes; with 'scale' the body is an autoscaling/v1 Scale. */
  update(gvr: GroupVersionResource, namespace: string, name: string, body: KubeObject, subresource?: Subresource, ctx?: RequestContext): StoredObject;
  patch(gvr: GroupVersionResource, namespace: string, name: string, type: PatchType, patch: unknown, subresource?: Subresource, ctx?: RequestContext): StoredObject;
  delete(gvr: GroupVersionResource, namespace: string, name: string, options?: DeleteOptions, ctx?: RequestContext): DeleteResult;
  /** Deletes every object the request's selectors match; answers the list of what was deleted. */
  deleteCollection(gvr: GroupVersionResource, request: ListRequest & DeleteOptions, ctx?: RequestContext): ListResult;
  /**
   * Opens a watch. Validation failures (bad selector, unknown resource) throw. A too-old
   * resourceVersion opens the watch and then delivers one ERROR event (410 Expired) and closes.
   */
  watch(gvr: GroupVersionResource, request: WatchRequest, listener: WatchListener, ctx?: RequestContext): SimWatch;

  /** Drops history before `rv` (default: now). */
  compact(rv?: number): number;
  /** Ends every watch; state and RVs carry on. */
  restart(): void;
  /** Parses, validates and starts a scenario (YAML text). Throws a ScenarioError naming line and field. */
  loadScenario(yamlText: string, options?: { fileName?: string }): ScenarioRunHandle;
  /** Every committed write, after watchers were queued. */
  onWrite(listener: (write: WriteRecord) => void): () => void;
  /** An in-process ListerWatcher for one resource (optionally one namespace). */
  listerWatcher(gvr: GroupVersionResource, namespace?: string, ctx?: RequestContext): ListerWatcher;
  /** Writes a final snapshot (when persisting) and ends every watch and timer. */
  close(): Promise<void>;
}
