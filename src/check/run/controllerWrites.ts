import type { KubeObject } from '../../shared/k8s.ts';
import type { SimClusterApi, WriteRecord } from '../../sim/index.ts';
import { kindOf } from '../oracle/index.ts';
import type { ChangePoint, Plan, WritePoint } from '../plans/plan.ts';
import { isNotState } from './notState.ts';
import { SCENARIO_USER_AGENT } from '../../sim/index.ts';

// The writes of a run as the simulated cluster committed them: the controller's own (requests
// authenticated as its user) numbered as plans name them, and every change of every object, by
// anyone, for the plans that perturb what the controller sees of a change. Listeners run
// synchronously right after the commit, before the writer gets its answer, so a plan can act at
// exactly that point (kill the controller before it does anything else). Writes of what is not
// state (a leader's Lease renewals, Events) are kept but count as no one's: no plan's point, no
// sign of a busy controller, no write made with nothing to do.

export interface CommittedWrite {
  verb: WritePoint['verb'];
  kind: string;
  group: string;
  resource: string;
  namespace: string;
  name: string;
  /** The name as plans name it: a generated name by its prefix and `*`. */
  pointName: string;
  resourceVersion: string;
  /** The resourceVersion the object had before (undefined for a create). */
  previousResourceVersion?: string;
  object: KubeObject;
  previous?: KubeObject;
  byController: boolean;
  /** Who wrote it: a user, or a client's user agent (the scenario's steps: SCENARIO_USER_AGENT), or kube-controller-manager (garbage collection). */
  writer?: string;
  /** For the controller's writes: the write point, with its occurrence. */
  point?: WritePoint;
  /** For changes (not creates): the change point, with its occurrence. */
  change?: ChangePoint;
  atMs: number;
}

/**
 * The request that made a write, as a person names it, when the point's verb does not: a patch, a
 * server-side apply, a write of the status. A finding that says `update` of a controller that
 * only patches points its reader at the wrong line.
 */
function requestOf(record: WriteRecord, verb: WritePoint['verb']): string | undefined {
  if (verb === 'delete' || record.verb === undefined) return undefined;
  const call = record.verb === 'patch' && record.patchType === 'apply' ? 'apply' : record.verb;
  const named = record.subresource ? `${call} ${record.subresource}` : call;
  return named === verb ? undefined : named;
}

/** Who makes the API server's follow-up work (garbage collection, namespace cleanup) on a cluster. */
const API_SERVER_CONTROLLERS = 'kube-controller-manager';

/** The name a plan gives an object: its name, or its generated name's prefix and `*`. */
export type PointNamer = (object: KubeObject) => string;

/** Before the reference runs told which names vary: generateName's prefix, else the name. */
export const byGenerateNamePrefix: PointNamer = (o) => {
  const { name = '', generateName } = o.metadata;
  return generateName && name.startsWith(generateName) ? `${generateName}*` : name;
};

/**
 * A replay has no reference runs to learn from which names the controller makes up: the plan's own
 * point says (`web-*` names any `web-…` of its kind and namespace that has no generateName).
 */
export function namerForPlan(plan: Plan): PointNamer {
  const point = 'write' in plan ? plan.write : 'change' in plan ? plan.change : undefined;
  const prefix = point?.name.endsWith('*') ? point.name.slice(0, -1) : undefined;
  return (o) => {
    const named = byGenerateNamePrefix(o);
    if (!point || prefix === undefined || o.metadata.generateName) return named;
    const same = kindOf(o) === point.kind && (o.metadata.namespace ?? '') === point.namespace && (o.metadata.name ?? '').startsWith(prefix);
    return same ? point.name : named;
  };
}

export class ControllerWrites {
  readonly all: CommittedWrite[] = [];
  private readonly occurrences = new Map<string, number>();
  private readonly listeners = new Set<(w: CommittedWrite) => void>();
  private readonly unsubscribe: () => void;
  private readonly started = performance.now();
  /** Per object, the controller's writes since anyone else last wrote it. */
  private readonly inARow = new Map<string, number>();
  /** The most writes the controller made to one object with nobody else writing it between (a write loop keeps counting). */
  longestWriteRun = { object: '', writes: 0 };
  /** When (performance.now()) the cluster's state last changed, by anyone. */
  private lastStateWriteAt = -Infinity;
  /** The objects the controller has written in this run. */
  private readonly writtenObjects = new Set<string>();
  /** When (`atMs`) the controller first wrote each of them, in order: a drain's progress. */
  private readonly firstWritesAt: number[] = [];

  constructor(cluster: SimClusterApi, user: string, namer: PointNamer) {
    this.unsubscribe = cluster.onWrite((record) => {
      const object = record.object.object as KubeObject;
      const previous = record.previous?.object as KubeObject | undefined;
      const verb: WritePoint['verb'] = record.type === 'ADDED' ? 'create' : record.type === 'DELETED' || (object.metadata.deletionTimestamp && !previous?.metadata.deletionTimestamp) ? 'delete' : 'update';
      const [namespace, name] = record.key.includes('/') ? (record.key.split('/', 2) as [string, string]) : ['', record.key];
      const kind = kindOf(object);
      const pointName = namer(object);
      const state = !isNotState(record.group, record.resource);
      // The garbage collector's deletes after the controller's delete are reported as the
      // controller's too; on a cluster kube-controller-manager makes them, whenever it gets to them.
      const byController = state && !record.followUp && record.client?.user === user;
      const write: CommittedWrite = {
        verb,
        kind,
        group: record.group,
        resource: record.resource,
        namespace,
        name,
        pointName,
        resourceVersion: object.metadata.resourceVersion ?? '',
        ...(previous ? { previousResourceVersion: previous.metadata.resourceVersion ?? '', previous } : {}),
        object,
        byController,
        ...(record.followUp ? { writer: API_SERVER_CONTROLLERS } : record.client ? { writer: record.client.user ?? record.client.userAgent } : {}),
        atMs: performance.now() - this.started,
      };
      const request = requestOf(record, verb);
      if (byController) write.point = { verb, kind, namespace, name: pointName, occurrence: this.count(`w ${verb} ${kind} ${namespace}/${pointName}`), ...(request ? { request } : {}) };
      if (verb !== 'create' && state) write.change = { kind, namespace, name: pointName, occurrence: this.count(`c ${kind} ${namespace}/${pointName}`) };
      this.all.push(write);
      if (state) this.lastStateWriteAt = performance.now();
      const id = `${kind} ${record.key}`;
      if (byController && !this.writtenObjects.has(id)) this.firstWrite(id, write.atMs);
      this.countInARow(id, byController, write.writer);
      for (const l of this.listeners) l(write);
    });
  }

  get byController(): CommittedWrite[] {
    return this.all.filter((w) => w.byController);
  }

  onWrite(listener: (w: CommittedWrite) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Milliseconds since the controller last wrote (Infinity when it never did). */
  sinceLastControllerWrite(): number {
    const last = this.all.findLast((w) => w.byController);
    return last ? performance.now() - this.started - last.atMs : Infinity;
  }

  /** Now, on the clock writes' `atMs` are on. */
  elapsedMs(): number {
    return performance.now() - this.started;
  }

  /** Milliseconds since anyone last changed the cluster's state (Infinity when nobody did). */
  sinceLastStateWrite(): number {
    return performance.now() - this.lastStateWriteAt;
  }

  close(): void {
    this.unsubscribe();
    this.listeners.clear();
  }

  /** How many objects the controller wrote for the first time in the last `ms`: a controller still working through new ones. */
  newObjectsWithin(ms: number): number {
    const since = this.elapsedMs() - ms;
    let n = 0;
    for (let i = this.firstWritesAt.length - 1; i >= 0 && this.firstWritesAt[i]! >= since; i--) n++;
    return n;
  }

  /**
   * An object the controller had not written yet: it is working through a list (a drain: ten
   * thousand children made, a status written on each), so writes to one object between (a
   * parent's count of them) are progress, not a loop answering its own writes.
   */
  private firstWrite(id: string, atMs: number): void {
    this.writtenObjects.add(id);
    this.firstWritesAt.push(atMs);
    this.inARow.clear();
  }

  /**
   * Another writer between the controller's writes ends its run, except the cluster's own
   * controllers: one that puts back what the controller undoes (kube-root-ca.crt, deleted, is made
   * again at once) is in a fight with it, which never ends either.
   */
  private countInARow(object: string, byController: boolean, writer: string | undefined): void {
    if (!byController) {
      if (writer === undefined || writer === SCENARIO_USER_AGENT) this.inARow.delete(object);
      return;
    }
    const writes = (this.inARow.get(object) ?? 0) + 1;
    this.inARow.set(object, writes);
    if (writes > this.longestWriteRun.writes) this.longestWriteRun = { object, writes };
  }

  private count(key: string): number {
    const n = (this.occurrences.get(key) ?? 0) + 1;
    this.occurrences.set(key, n);
    return n;
  }
}

/**
 * The same writes with their points named by another namer (one that knows, from the reference
 * runs, which names the controller makes up) and counted again.
 */
export function renamePoints(writes: readonly CommittedWrite[], namer: PointNamer): CommittedWrite[] {
  const occurrences = new Map<string, number>();
  const count = (key: string) => {
    const n = (occurrences.get(key) ?? 0) + 1;
    occurrences.set(key, n);
    return n;
  };
  return writes.map((w) => {
    const pointName = namer(w.object);
    const renamed: CommittedWrite = { ...w, pointName };
    if (w.point) renamed.point = { ...w.point, name: pointName, occurrence: count(`w ${w.verb} ${w.kind} ${w.namespace}/${pointName}`) };
    if (w.change) renamed.change = { ...w.change, name: pointName, occurrence: count(`c ${w.kind} ${w.namespace}/${pointName}`) };
    return renamed;
  });
}

export function sameWritePoint(a: WritePoint, b: WritePoint): boolean {
  return a.verb === b.verb && a.kind === b.kind && a.namespace === b.namespace && a.name === b.name && a.occurrence === b.occurrence;
}

export function sameChangePoint(a: ChangePoint, b: ChangePoint): boolean {
  return a.kind === b.kind && a.namespace === b.namespace && a.name === b.name && a.occurrence === b.occurrence;
}
