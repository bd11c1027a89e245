import type { KubeObject } from '../../shared/k8s.ts';
import { ApiError } from '../../shared/apiError.ts';
import type { CallSite, CacheListOptions, CacheReader, ControllerClient, DeleteOptions, EventRecorder, EventType, KindSelector, LogLine, ObjectRef, PatchType, ReconcileContext, StaleRead, WriteRecord, WriteVerb } from '../../controllerProtocol/index.ts';
import type { WrittenVersions } from './writtenVersions.ts';
import type { EventWriter } from './eventRecorder.ts';
import type { KindInformer, ObjectWriter } from './ports.ts';
import { toLabelSelector } from '../../shared/labelSelector.ts';
import { plainFields, truncateText } from './truncate.ts';
import { callerOf } from './callSite.ts';

// The `ctx` a reconcile receives: cache readers over the controller's own informers, a client whose
// every call is recorded (verb, object, the RV the server answered, or the error), a logger and an
// event recorder.

export interface ContextDeps {
  reconcileId: string;
  informerFor(kind: KindSelector): KindInformer;
  writer: ObjectWriter;
  /** The controller's Events, shared by its reconciles (repeats are counted across them). */
  events: EventWriter;
  now(): number;
  onWrite(write: WriteRecord): void;
  onLog(line: LogLine): void;
  signal: AbortSignal;
  /** What this process wrote and its informers have not delivered yet: reads are checked against it. */
  written?: WrittenVersions;
  /** This reconcile's seq (a stale read names the reconcile that wrote). */
  seq?: number;
  onStaleRead?(read: StaleRead): void;
}

function refOf(obj: ObjectRef | KubeObject): ObjectRef & { resourceVersion?: string } {
  if ('metadata' in obj && obj.metadata) {
    const o = obj as KubeObject;
    if (!o.apiVersion || !o.kind) throw new TypeError('object needs apiVersion and kind');
    if (!o.metadata.name) throw new TypeError('object needs metadata.name');
    return { apiVersion: o.apiVersion, kind: o.kind, namespace: o.metadata.namespace, name: o.metadata.name, resourceVersion: o.metadata.resourceVersion };
  }
  return obj as ObjectRef;
}

const PROPAGATION_POLICIES = new Set(['Foreground', 'Background', 'Orphan']);

/** Refuses options the API server would not take, before the request, with the field named. */
function checkDeleteOptions(options: DeleteOptions | undefined): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null) throw new TypeError('client.delete: options must be an object ({ preconditions, propagationPolicy })');
  const { preconditions: pre, propagationPolicy } = options;
  if (pre !== undefined) {
    if (typeof pre !== 'object' || pre === null) throw new TypeError('client.delete: preconditions must be an object ({ uid, resourceVersion })');
    for (const field of ['uid', 'resourceVersion'] as const) {
      if (pre[field] !== undefined && (typeof pre[field] !== 'string' || pre[field] === '')) {
        throw new TypeError(`client.delete: preconditions.${field} must be a non-empty string (got ${JSON.stringify(pre[field])}): an object read from the cache has one`);
      }
    }
  }
  if (propagationPolicy !== undefined && !PROPAGATION_POLICIES.has(propagationPolicy)) {
    throw new TypeError(`client.delete: propagationPolicy must be Foreground, Background or Orphan (got ${JSON.stringify(propagationPolicy)})`);
  }
}

/** The cached object's resourceVersion, when the controller watches its kind. */
function cachedVersion(deps: ContextDeps, ref: ObjectRef): string | undefined {
  try {
    return deps.informerFor({ apiVersion: ref.apiVersion, kind: ref.kind }).get(ref.namespace ? `${ref.namespace}/${ref.name}` : ref.name)?.metadata.resourceVersion;
  } catch {
    return undefined;
  }
}

// As controller-runtime's cache reader: callers get copies, so mutating one never corrupts the cache.
function copy<T>(obj: T): T {
  return obj === undefined ? obj : structuredClone(obj);
}

/** Reads the cache; `check` sees each object read (and each get that found nothing). */
export function createCacheReader(informerFor: (kind: KindSelector) => KindInformer, check?: (inf: KindInformer, namespace: string | undefined, name: string, found: KubeObject | undefined) => void): CacheReader {
  return {
    get: <T extends KubeObject>(kind: KindSelector, namespace: string, name: string) => {
      const inf = informerFor(kind);
      const found = inf.get(namespace ? `${namespace}/${name}` : name);
      check?.(inf, namespace || undefined, name, found);
      return copy(found) as T | undefined;
    },
    list: <T extends KubeObject>(kind: KindSelector, options: CacheListOptions = {}) => {
      const selector = toLabelSelector(options.labelSelector);
      const inf = informerFor(kind);
      const items = inf.list(options.namespace).filter((o) => selector.matches(o.metadata.labels));
      if (check) for (const o of items) check(inf, o.metadata.namespace, o.metadata.name ?? '', o);
      return items.map(copy) as T[];
    },
  };
}

export function createReconcileContext(deps: ContextDeps): ReconcileContext {
  // `caller`: the controller's line that called the client method (taken before the first await).
  const record = async <T>(verb: WriteVerb, ref: ObjectRef & { resourceVersion?: string }, call: () => Promise<KubeObject | undefined>, caller: CallSite | undefined, uid?: string): Promise<T> => {
    const at = deps.now();
    const base = { verb, apiVersion: ref.apiVersion, kind: ref.kind, namespace: ref.namespace || undefined, name: ref.name, at, ...(caller ? { caller } : {}), ...(uid ? { uid } : {}) };
    // The version the write starts from, to tell a write that changed nothing (the same version back).
    const previous = verb === 'update' || verb === 'updateStatus' ? ref.resourceVersion : verb === 'patch' ? cachedVersion(deps, ref) : undefined;
    try {
      const result = await call();
      const resourceVersion = result?.metadata?.resourceVersion;
      const change = previous !== undefined && resourceVersion !== undefined ? { previousResourceVersion: previous, changed: previous !== resourceVersion } : {};
      deps.onWrite({ ...base, name: result?.metadata?.name ?? base.name, resourceVersion, ...change, durationMs: deps.now() - at });
      deps.written?.wrote(ref.kind, `${ref.namespace ? `${ref.namespace}/` : ''}${result?.metadata?.name ?? ref.name}`, verb, result, deps.seq ?? 0);
      return result as T;
    } catch (err) {
      const e = err as Error;
      deps.onWrite({
        ...base,
        error: { code: err instanceof ApiError ? err.code : undefined, reason: err instanceof ApiError ? err.reason : undefined, message: e.message },
        durationMs: deps.now() - at,
      });
      throw err;
    }
  };

  const client: ControllerClient = {
    create: (obj) => record('create', refOf({ ...obj, metadata: { ...obj.metadata, name: obj.metadata.name ?? obj.metadata.generateName ?? '' } }), () => deps.writer.create(obj), callerOf(client.create)),
    update: (obj) => record('update', refOf(obj), () => deps.writer.update(obj), callerOf(client.update)),
    updateStatus: (obj) => record('updateStatus', refOf(obj), () => deps.writer.update(obj, 'status'), callerOf(client.updateStatus)),
    patch: (ref, patch, type: PatchType = 'merge') => record('patch', ref, () => deps.writer.patch(ref, patch, type), callerOf(client.patch)),
    delete: async (target, options) => {
      const caller = callerOf(client.delete);
      const ref = refOf(target);
      checkDeleteOptions(options);
      // The deleted object's uid (what was read, or what the precondition names): a later object of its name is another.
      const uid = options?.preconditions?.uid ?? ('metadata' in target ? target.metadata.uid : undefined);
      await record('delete', ref, () => deps.writer.delete(ref, options), caller, uid);
    },
  };

  const log = (level: LogLine['level']) => (message: string, fields?: Record<string, unknown>) =>
    deps.onLog({ level, message: truncateText(String(message)), fields: plainFields(fields), at: deps.now() });

  const recorder: EventRecorder = {
    event(object: KubeObject, type: EventType, reason: string, message: string): void {
      if (typeof object !== 'object' || object === null) throw new TypeError('recorder.event: the first argument is the object the event is about');
      const ref = refOf(object);
      if (type !== 'Normal' && type !== 'Warning') throw new TypeError(`recorder.event: type must be 'Normal' or 'Warning', not ${JSON.stringify(type)}`);
      if (typeof reason !== 'string' || reason === '') throw new TypeError('recorder.event: reason is required');
      const about = `${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`;
      deps.onLog({ level: 'info', message: truncateText(`event ${type} ${reason} on ${about}: ${String(message)}`), at: deps.now() });
      void deps.events.record(copy(object), type, reason, String(message)).then((refused) => {
        if (refused) deps.onLog({ level: 'error', message: truncateText(`event ${reason} on ${about} not written: ${refused}`), at: deps.now() });
      });
    },
  };

  return {
    reconcileId: deps.reconcileId,
    signal: deps.signal,
    client,
    log: { info: log('info'), error: log('error') },
    recorder,
    ...createCacheReader(deps.informerFor, (inf, namespace, name, found) => {
      const stale = deps.written?.check(inf.kind.apiVersion, inf.kind.kind, namespace, name, found);
      if (stale) deps.onStaleRead?.(stale);
    }),
  };
}
