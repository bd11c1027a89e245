import type { KubeObject } from '../shared/k8s.ts';

// The API a user controller is written against (`import { defineController } from 'controller-lab'`).
// Shapes follow controller-runtime: a key-only request, a Result that may ask for a requeue, and a
// TerminalError that is reported but never retried. The build generates types/controller-lab.d.ts
// (what the user's editor sees) from this file, leaving out the declarations marked internal.

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
export function predicate(name: string, filter: (event: WatchEvent) => boolean): Predicate {
  if (typeof name !== 'string' || name === '') throw new TypeError('predicate: a name is required');
  if (typeof filter !== 'function') throw new TypeError(`predicate ${name}: filter must be a function`);
  return Object.freeze({ name, filter });
}

/** Only what changed on a MODIFIED event matters; ADDED and DELETED always pass. */
function onChange(name: string, changed: (old: KubeObject, object: KubeObject) => boolean): Predicate {
  return predicate(name, (e) => e.type !== 'MODIFIED' || e.old === undefined || changed(e.old, e.object));
}

const sameMap = (a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean => {
  const ka = Object.keys(a ?? {});
  return ka.length === Object.keys(b ?? {}).length && ka.every((k) => a?.[k] === b?.[k]);
};

/** Updates pass only when metadata.generation changed (a spec change, not a status one). */
export const GenerationChangedPredicate: Predicate = onChange('GenerationChangedPredicate', (o, n) => o.metadata.generation !== n.metadata.generation);
/** Updates pass only when the resourceVersion changed (a resync does not). */
export const ResourceVersionChangedPredicate: Predicate = onChange('ResourceVersionChangedPredicate', (o, n) => o.metadata.resourceVersion !== n.metadata.resourceVersion);
/** Updates pass only when the labels changed. */
export const LabelChangedPredicate: Predicate = onChange('LabelChangedPredicate', (o, n) => !sameMap(o.metadata.labels, n.metadata.labels));
/** Updates pass only when the annotations changed. */
export const AnnotationChangedPredicate: Predicate = onChange('AnnotationChangedPredicate', (o, n) => !sameMap(o.metadata.annotations, n.metadata.annotations));

/** @internal */
const CONTROLLER_BRAND = Symbol.for('controller-lab.controller');

/** What `defineController` returns: export it as the module's default (or a named export). */
export interface ControllerDefinition extends ControllerSpec {
  /** @internal */
  readonly [CONTROLLER_BRAND]: true;
}

/** An error that retrying will not fix: reported, the key is forgotten, no backoff. */
export class TerminalError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TerminalError';
  }
}

function checkKind(where: string, k: unknown, hint = ''): void {
  const ref = k as Partial<SourceSpec> | undefined;
  if (!ref || typeof ref.apiVersion !== 'string' || typeof ref.kind !== 'string') {
    throw new TypeError(`defineController: ${where} needs { apiVersion, kind }${hint}`);
  }
  checkPredicates(`${where}.predicates`, ref.predicates);
}

function checkPredicates(where: string, list: unknown): void {
  if (list === undefined) return;
  if (!Array.isArray(list)) throw new TypeError(`defineController: ${where} must be an array`);
  list.forEach((p: unknown, i) => {
    const ok = typeof p === 'function' || (typeof p === 'object' && p !== null && typeof (p as Predicate).filter === 'function');
    if (!ok) throw new TypeError(`defineController: ${where}[${i}] must be a predicate ({ name, filter }) or a function`);
  });
}

/** More concurrent reconciles than any controller needs, and few enough for the host to make. */
const MAX_CONCURRENT_RECONCILES = 1000;

const SPEC_FIELDS = new Set(['name', 'for', 'owns', 'watches', 'predicates', 'maxConcurrentReconciles', 'reconcile']);

/**
 * The spec's fields defineController does not know, said after a required one found missing: most
 * likely its misspelling (`fro`, `reconcil`). Unknown fields are not refused on their own: a
 * JavaScript controller may keep its helpers on the spec.
 */
function unknownFieldsHint(spec: object): string {
  const unknown = Object.keys(spec).filter((k) => !SPEC_FIELDS.has(k));
  return unknown.length ? ` (unknown field ${unknown.map((k) => `\`${k}\``).join(', ')}: a misspelling?)` : '';
}

/** Validates a controller spec early, so a typo fails at load with a clear message, not mid-reconcile. */
export function defineController(spec: ControllerSpec): ControllerDefinition {
  if (!spec || typeof spec !== 'object') throw new TypeError('defineController: expected an object');
  if (typeof spec.name !== 'string' || spec.name === '') throw new TypeError(`defineController: \`name\` is required${unknownFieldsHint(spec)}`);
  checkKind('`for`', spec.for, unknownFieldsHint(spec));
  spec.owns?.forEach((k, i) => checkKind(`owns[${i}]`, k));
  spec.watches?.forEach((w, i) => {
    checkKind(`watches[${i}]`, w);
    if (typeof w.map !== 'function') throw new TypeError(`defineController: watches[${i}].map must be a function`);
  });
  checkPredicates('predicates', spec.predicates);
  if (typeof spec.reconcile !== 'function') throw new TypeError(`defineController: \`reconcile\` must be a function${unknownFieldsHint(spec)}`);
  const workers = spec.maxConcurrentReconciles;
  // A billion workers exhaust the host's heap before the first reconcile runs.
  if (workers !== undefined && (!Number.isInteger(workers) || workers < 1 || workers > MAX_CONCURRENT_RECONCILES)) {
    throw new TypeError(`defineController: maxConcurrentReconciles must be a positive integer, at most ${MAX_CONCURRENT_RECONCILES}`);
  }
  return Object.assign(Object.create(null) as object, spec, { [CONTROLLER_BRAND]: true as const }) as ControllerDefinition;
}

/** @internal */
export function isControllerDefinition(value: unknown): value is ControllerDefinition {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[CONTROLLER_BRAND] === true;
}

/** @internal */
export function isTerminalError(err: unknown): boolean {
  return err instanceof TerminalError || (err instanceof Error && err.name === 'TerminalError');
}

/** @internal What `import 'controller-lab'` evaluates to inside the controller host. */
export const userApi = { defineController, TerminalError, predicate, GenerationChangedPredicate, ResourceVersionChangedPredicate, LabelChangedPredicate, AnnotationChangedPredicate };

/** @internal The global slot the compiled user module reads the API from, so TerminalError stays one class. */
export const USER_API_GLOBAL = Symbol.for('controller-lab.api');
