import type { KubeObject } from '../../shared/k8s.ts';
import { ApiError } from '../../shared/apiError.ts';
import type { CacheListOptions, CacheReader, ControllerClient, EventRecorder, EventType, KindSelector, LogLine, ObjectRef, PatchType, ReconcileContext, WriteRecord, WriteVerb } from '../../controllerProtocol/index.ts';
import type { EventWriter } from './eventRecorder.ts';
import type { KindInformer, ObjectWriter } from './ports.ts';
import { toLabelSelector } from '../../shared/labelSelector.ts';
import { plainFields, truncateText } from './truncate.ts';

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
}

function refOf(obj: ObjectRef | KubeObject): ObjectRef {
  if ('metadata' in obj && obj.metadata) {
    const o = obj as KubeObject;
    if (!o.apiVersion || !o.kind) throw new TypeError('object needs apiVersion and kind');
    if (!o.metadata.name) throw new TypeError('object needs metadata.name');
    return { apiVersion: o.apiVersion, kind: o.kind, namespace: o.metadata.namespace, name: o.metadata.name };
  }
  return obj as ObjectRef;
}

// As controller-runtime's cache reader: callers get copies, so mutating one never corrupts the cache.
function copy<T>(obj: T): T {
  return obj === undefined ? obj : structuredClone(obj);
}

export function createCacheReader(informerFor: (kind: KindSelector) => KindInformer): CacheReader {
  return {
    get: <T extends KubeObject>(kind: KindSelector, namespace: string, name: string) =>
      copy(informerFor(kind).get(namespace ? `${namespace}/${name}` : name)) as T | undefined,
    list: <T extends KubeObject>(kind: KindSelector, options: CacheListOptions = {}) => {
      const selector = toLabelSelector(options.labelSelector);
      return informerFor(kind)
        .list(options.namespace)
        .filter((o) => selector.matches(o.metadata.labels))
        .map(copy) as T[];
    },
  };
}

export function createReconcileContext(deps: ContextDeps): ReconcileContext {
  const record = async <T>(verb: WriteVerb, ref: ObjectRef, call: () => Promise<KubeObject | undefined>): Promise<T> => {
    const at = deps.now();
    const base = { verb, apiVersion: ref.apiVersion, kind: ref.kind, namespace: ref.namespace || undefined, name: ref.name, at };
    try {
      const result = await call();
      deps.onWrite({ ...base, name: result?.metadata?.name ?? base.name, resourceVersion: result?.metadata?.resourceVersion, durationMs: deps.now() - at });
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
    create: (obj) => record('create', refOf({ ...obj, metadata: { ...obj.metadata, name: obj.metadata.name ?? obj.metadata.generateName ?? '' } }), () => deps.writer.create(obj)),
    update: (obj) => record('update', refOf(obj), () => deps.writer.update(obj)),
    updateStatus: (obj) => record('updateStatus', refOf(obj), () => deps.writer.update(obj, 'status')),
    patch: (ref, patch, type: PatchType = 'merge') => record('patch', ref, () => deps.writer.patch(ref, patch, type)),
    delete: async (target) => {
      const ref = refOf(target);
      await record('delete', ref, () => deps.writer.delete(ref));
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
    ...createCacheReader(deps.informerFor),
  };
}
