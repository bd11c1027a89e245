// Types for `import { defineController, TerminalError } from 'controller-lab'`.
// Controller Lab runs your controller with this module provided; this file only gives your editor
// the types. A project that installed the npm package has them already (its package.json names this
// file); otherwise include it in your tsconfig ("include": [..., "types/controller-lab.d.ts"]), or run
// "Controller Lab: Add Controller Types to Workspace", which does that for you.
// Generated from Controller Lab's src/controllerProtocol/api.ts by `node scripts/controllerTypes.mjs`: do not edit.

declare module 'controller-lab' {
  export interface OwnerReference {
    apiVersion: string;
    kind: string;
    name: string;
    uid: string;
    controller?: boolean;
    blockOwnerDeletion?: boolean;
  }

  export interface ObjectMeta {
    name?: string;
    generateName?: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    generation?: number;
    creationTimestamp?: string;
    deletionTimestamp?: string;
    deletionGracePeriodSeconds?: number;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    finalizers?: string[];
    ownerReferences?: OwnerReference[];
    managedFields?: unknown[];
  }

  export interface KubeObject {
    apiVersion?: string;
    kind?: string;
    metadata: ObjectMeta;
    [field: string]: unknown;
  }

  export interface KindRef {
    apiVersion: string;
    kind: string;
  }

  /** A kind given as `{ apiVersion, kind }`, or by its kind name when the controller watches it. */
  export type KindSelector = KindRef | string;

  /** Level-based: only the key; read the current state from the cache. */
  export interface ReconcileRequest {
    namespace: string;
    name: string;
  }

  export interface ReconcileResult {
    /** Put the key back through the rate limiter (backoff), as controller-runtime's `Requeue: true`. */
    requeue?: boolean;
    /** Reconcile again after this many milliseconds (the rate limiter is reset). */
    requeueAfter?: number;
  }

  export interface CacheListOptions {
    namespace?: string;
    /** `app=web,tier!=db`, `env in (a,b)`, or an equality map. */
    labelSelector?: string | Record<string, string>;
  }

  /** Identifies an object to patch or delete. */
  export interface ObjectRef {
    apiVersion: string;
    kind: string;
    namespace?: string;
    name: string;
  }

  export type PatchType = 'merge' | 'json' | 'strategic';

  /**
   * What a delete must find, as client-go's `metav1.Preconditions`: the API server refuses the
   * delete (409 Conflict) when the object it holds under the name has another uid (deleted and made
   * again since it was read) or another resourceVersion (changed since).
   */
  export interface DeletePreconditions {
    uid?: string;
    resourceVersion?: string;
  }

  /** As client-go's `metav1.DeleteOptions`. */
  export interface DeleteOptions {
    /** Delete only the object read: `{ uid: obj.metadata.uid }`. */
    preconditions?: DeletePreconditions;
    /** What happens to the objects it owns (the API server's default: Background). */
    propagationPolicy?: 'Foreground' | 'Background' | 'Orphan';
  }

  /** Writes go to the API server; each call is recorded (verb, object, resulting resourceVersion or error). */
  export interface ControllerClient {
    create<T extends KubeObject>(obj: T): Promise<T>;
    update<T extends KubeObject>(obj: T): Promise<T>;
    updateStatus<T extends KubeObject>(obj: T): Promise<T>;
    patch<T extends KubeObject = KubeObject>(ref: ObjectRef, patch: unknown, type?: PatchType): Promise<T>;
    /** With `{ preconditions: { uid } }`, deletes only that very object: another under its name is a 409 Conflict. */
    delete(ref: ObjectRef | KubeObject, options?: DeleteOptions): Promise<void>;
  }

  export interface ControllerLogger {
    info(message: string, fields?: Record<string, unknown>): void;
    error(message: string, fields?: Record<string, unknown>): void;
  }

  /** Reads the controller's informer caches (copies: mutating them changes nothing). */
  export interface CacheReader {
    /** The cached object, or undefined when the cache does not hold it. */
    get<T extends KubeObject = KubeObject>(kind: KindSelector, namespace: string, name: string): T | undefined;
    list<T extends KubeObject = KubeObject>(kind: KindSelector, options?: CacheListOptions): T[];
  }

  export type EventType = 'Normal' | 'Warning';

  /** Records Events about objects, as controller-runtime's EventRecorder (`mgr.GetEventRecorderFor`). */
  export interface EventRecorder {
    /**
     * An Event about `object`, from this controller (`kubectl describe` lists it): written in the
     * background and in order; the same event again raises the count of the Event already written.
     * The reconcile's log says so, and says why if the server refused it.
     */
    event(object: KubeObject, type: EventType, reason: string, message: string): void;
  }

  export interface ReconcileContext extends CacheReader {
    client: ControllerClient;
    log: ControllerLogger;
    recorder: EventRecorder;
    /** Unique per reconcile call, as controller-runtime's reconcileID. */
    reconcileId: string;
    /** Aborted when the reconcile timed out. */
    signal: AbortSignal;
  }

  /** A watch event as a predicate sees it. */
  export interface WatchEvent {
    type: 'ADDED' | 'MODIFIED' | 'DELETED';
    object: KubeObject;
    /** For MODIFIED: the object as the cache held it before. */
    old?: KubeObject;
  }

  /**
   * Decides whether a watch event may enqueue anything, as controller-runtime's predicates do. Its
   * name is what "why not" answers and the timeline say when it filters an event out.
   */
  export interface Predicate {
    readonly name: string;
    filter(event: WatchEvent): boolean;
  }

  /** A predicate, or a plain function (named by its function name). */
  export type PredicateLike = Predicate | ((event: WatchEvent) => boolean);

  /** A kind whose events enqueue requests, with the predicates an event must pass first. */
  export interface SourceSpec extends KindRef {
    predicates?: PredicateLike[];
  }

  export interface WatchSpec extends SourceSpec {
    /** Which requests an event on this object should trigger. */
    map(obj: KubeObject, cache: CacheReader): ReconcileRequest[];
  }

  export interface ControllerSpec {
    name: string;
    /** The kind this controller reconciles: requests are its keys. */
    for: SourceSpec;
    /** Kinds it creates with a controller ownerReference: their events reconcile the owner. */
    owns?: SourceSpec[];
    /** Other kinds whose events map to requests. */
    watches?: WatchSpec[];
    /** Predicates every event passes before its source's own (controller-runtime's WithEventFilter). */
    predicates?: PredicateLike[];
    /** Reconciles running at once, 1 to 1000 (default 1). */
    maxConcurrentReconciles?: number;
    /** Return nothing (done), `{ requeueAfter }`, `{ requeue: true }`, or throw (retried with backoff). */
    reconcile(request: ReconcileRequest, ctx: ReconcileContext): Promise<ReconcileResult | void> | ReconcileResult | void;
  }

  /** A named predicate from a function. */
  export function predicate(name: string, filter: (event: WatchEvent) => boolean): Predicate;

  /** Updates pass only when metadata.generation changed (a spec change, not a status one). */
  export const GenerationChangedPredicate: Predicate;

  /** Updates pass only when the resourceVersion changed (a resync does not). */
  export const ResourceVersionChangedPredicate: Predicate;

  /** Updates pass only when the labels changed. */
  export const LabelChangedPredicate: Predicate;

  /** Updates pass only when the annotations changed. */
  export const AnnotationChangedPredicate: Predicate;

  /** What `defineController` returns: export it as the module's default (or a named export). */
  export interface ControllerDefinition extends ControllerSpec {
  }

  /** An error that retrying will not fix: reported, the key is forgotten, no backoff. */
  export class TerminalError extends Error {
    constructor(message: string, options?: {
      cause?: unknown;
    });
  }

  /** Validates a controller spec early, so a typo fails at load with a clear message, not mid-reconcile. */
  export function defineController(spec: ControllerSpec): ControllerDefinition;
}
