import type { KubeObject } from '../../shared/k8s.ts';
import { jsonEqual } from '../vocabulary/jsonEqual.ts';
import type { AdmissionPoints, RequestContext } from '../store/types.ts';

// The passes of one write through the store's admission points. A capture pass is a dry run that
// stops where admission sees the object and keeps a copy of it; a replay pass hands the store the
// webhooks' result at the mutating point (the object there must be the one they were shown) and,
// at the validating point, checks that the object being replaced is the one the webhooks saw.
// Only the request's own object counts: the points also see the cascades a write causes.

/** The request's own object: its kind, namespace and name ('' for a create, which makes one object). */
export interface WriteTarget {
  kind: string;
  namespace: string;
  name: string;
}

export interface Captured {
  /** `namespace/name` of the object. */
  key: string;
  object: Readonly<KubeObject> | undefined;
  old: Readonly<KubeObject> | undefined;
}

/** What mutating admission made of the object, to hand back in later passes. */
export interface Replay {
  /** The object the mutating webhooks were shown. */
  before?: Readonly<KubeObject>;
  /** What they made of it (the same object when they changed nothing). */
  after?: Readonly<KubeObject> | undefined;
  /** A created object keeps the name the webhooks saw (a generateName is resolved once). */
  pinnedName?: string | undefined;
}

/** The object changed between the passes of a write: the write starts over. */
export class StaleAdmission extends Error {}

/** Ends a capture pass (never leaves this file). */
class Captured_ extends Error {}

function keyOf(obj: Readonly<KubeObject>): string {
  return `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;
}

/** A PUT's body may leave out its namespace and name: the URL's are the object's, as the API server fills them in. */
function identified(target: WriteTarget, obj: Readonly<KubeObject>): Readonly<KubeObject> {
  if (target.name === '' || (obj.metadata.name && (obj.metadata.namespace || !target.namespace))) return obj;
  const metadata = { ...obj.metadata, name: obj.metadata.name || target.name };
  if (target.namespace) metadata.namespace = obj.metadata.namespace || target.namespace;
  return { ...obj, metadata };
}

function isTarget(target: WriteTarget, obj: Readonly<KubeObject> | undefined, creating: boolean): obj is Readonly<KubeObject> {
  if (!obj || obj.kind !== target.kind) return false;
  const { name, namespace } = identified(target, obj).metadata;
  if ((namespace ?? '') !== target.namespace) return false;
  return target.name === '' ? creating : name === target.name;
}

function copy(obj: Readonly<KubeObject>): KubeObject {
  return structuredClone(obj) as KubeObject;
}

/** What may differ between passes of the same write: a name generated anew, managedFields' timestamps. */
function comparable(obj: Readonly<KubeObject>): unknown {
  const { managedFields: _managedFields, ...metadata } = obj.metadata;
  if (obj.metadata.generateName) metadata.name = '';
  return { ...obj, metadata };
}

function sameInput(obj: Readonly<KubeObject>, before: Readonly<KubeObject>): boolean {
  return jsonEqual(comparable(obj), comparable(before));
}

function replayMutation(target: WriteTarget, replay: Replay, obj: KubeObject, old: Readonly<KubeObject> | undefined): KubeObject {
  if (!isTarget(target, obj, old === undefined)) return obj;
  if (replay.before && replay.after && replay.after !== replay.before) {
    if (!sameInput(identified(target, obj), replay.before)) throw new StaleAdmission();
    return copy(replay.after);
  }
  if (!old && replay.pinnedName && obj.metadata.name !== replay.pinnedName) {
    const pinned = copy(obj);
    pinned.metadata.name = replay.pinnedName;
    return pinned;
  }
  return obj;
}

/** A dry run of the write up to one admission point: the object there (undefined if the write never got there). */
export function capturePoint<T>(ctx: RequestContext, target: WriteTarget, write: (ctx: RequestContext) => T, point: 'mutate' | 'validate', replay: Replay): Captured | undefined {
  let captured: Captured | undefined;
  const points: AdmissionPoints = {
    mutate(obj, old) {
      const next = replayMutation(target, replay, obj, old);
      if (point === 'mutate' && isTarget(target, next, old === undefined)) {
        const shown = identified(target, next);
        captured = { key: keyOf(shown), object: copy(shown), old };
        throw new Captured_();
      }
      return next;
    },
    validate(obj, old) {
      const subject = obj ?? old;
      if (point === 'validate' && isTarget(target, subject, old === undefined)) {
        captured = { key: keyOf(subject), object: obj ? copy(obj) : undefined, old };
        throw new Captured_();
      }
    },
  };
  try {
    write({ ...ctx, dryRun: true, warnings: [], admission: points });
  } catch (err) {
    if (!(err instanceof Captured_)) throw err;
  }
  return captured;
}

/**
 * The points of the pass that writes: the webhooks' changes replayed, and each admitted object
 * (by key) still at the resourceVersion they saw. Objects not in `expected` pass unchecked.
 */
export function replayPoints(target: WriteTarget, replay: Replay, expected: ReadonlyMap<string, string | undefined> | undefined, created?: Readonly<KubeObject>): AdmissionPoints {
  const { uid, creationTimestamp } = created?.metadata ?? {};
  return {
    ...(uid && creationTimestamp ? { createdAs: { uid, creationTimestamp } } : {}),
    mutate: (obj, old) => replayMutation(target, replay, obj, old),
    validate(obj, old) {
      const subject = obj ?? old;
      if (!subject || !expected?.has(keyOf(subject)) || subject.kind !== target.kind) return;
      if (old?.metadata.resourceVersion !== expected.get(keyOf(subject))) throw new StaleAdmission();
    },
  };
}
