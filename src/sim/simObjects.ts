import type { Clock } from '../shared/clock.ts';
import type { GroupVersionResource, KubeObject } from '../shared/k8s.ts';
import type { ListerWatcher } from '../informer/index.ts';
import type { ResourceRegistry } from './vocabulary/resourceInfo.ts';
import type { FaultControls } from './faults/faultControls.ts';
import type { FaultTarget } from './faults/faultTable.ts';
import type {
  DeleteOptions,
  DeleteResult,
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
import type { WorkloadOptions } from './workloads/index.ts';

// The narrow faces of the simulated cluster that its own parts use: scenarios, trace replay, the
// bootstrap and control plane, admission, RBAC and the in-process ListerWatcher take these instead
// of the SimCluster that starts them, so none of them imports simCluster.ts (and simCluster.ts can
// import them without a cycle).

/** The cluster's objects, addressed by group/version/resource, with the API server's semantics. */
export interface SimObjects {
  readonly clock: Clock;
  readonly resources: ResourceRegistry;
  list(gvr: GroupVersionResource, request: ListRequest, ctx?: RequestContext): ListResult;
  get(gvr: GroupVersionResource, namespace: string, name: string, subresource?: Subresource, ctx?: RequestContext): StoredObject;
  /** `body.metadata.namespace` may be empty (the URL's namespace is used) but must not differ. */
  create(gvr: GroupVersionResource, namespace: string, body: KubeObject, ctx?: RequestContext): StoredObject;
  /** A PUT. With subresource 'status' only status changes; with 'scale' the body is an autoscaling/v1 Scale. */
  update(gvr: GroupVersionResource, namespace: string, name: string, body: KubeObject, subresource?: Subresource, ctx?: RequestContext): StoredObject;
  patch(gvr: GroupVersionResource, namespace: string, name: string, type: PatchType, patch: unknown, subresource?: Subresource, ctx?: RequestContext): StoredObject;
  delete(gvr: GroupVersionResource, namespace: string, name: string, options?: DeleteOptions, ctx?: RequestContext): DeleteResult;
  /**
   * Opens a watch. Validation failures (bad selector, unknown resource) throw. A too-old
   * resourceVersion opens the watch and then delivers one ERROR event (410 Expired) and closes.
   */
  watch(gvr: GroupVersionResource, request: WatchRequest, listener: WatchListener, ctx?: RequestContext): SimWatch;
}

/**
 * The cluster as the parts that run in its own process see it (the control plane's controllers,
 * admission's webhook cache): its objects, informers over them, and every write as it commits.
 */
export interface InProcessCluster extends SimObjects {
  /** Every committed write, after watchers were queued (with `unchanged`, also writes that stored nothing). */
  onWrite(listener: (write: WriteRecord) => void, options?: { unchanged?: boolean }): () => void;
  /**
   * Whether the garbage collector's and the namespace controller's deletion work is done (default
   * on); off, deletes leave what only kube-controller-manager would clean up, as in envtest.
   */
  setDeletionControllers(on: boolean): void;
  /** An in-process ListerWatcher for one resource (optionally one namespace); objects are copies unless `shareFrozen`. */
  listerWatcher(gvr: GroupVersionResource, namespace?: string, ctx?: RequestContext, options?: { shareFrozen?: boolean }): ListerWatcher;
}

/** What a scenario drives beyond the objects: faults, restarts, its seed and the workloads. */
export interface ScenarioTarget extends SimObjects, FaultTarget {
  readonly faults: FaultControls;
  /** Ends every watch; state and RVs carry on (`dropHistory`: resumes from before get 410). */
  restart(options?: { dropHistory?: boolean }): void;
  /** Seeds uid and generateName randomness (scenarios do, for repeatable runs). */
  seed(seed: number): void;
  enableWorkloads(options?: Partial<WorkloadOptions>): WorkloadOptions;
}

/** A running scenario, as the CLI and the views follow it. */
export interface ScenarioRunHandle {
  /** Resolves when the last step ran (or rejects with the step's error). */
  readonly done: Promise<void>;
  /** Stops scheduling further steps. */
  stop(): void;
  /** What in the file still runs but is written in an old way (`file:line:col: path: message`). */
  readonly warnings: readonly string[];
}
