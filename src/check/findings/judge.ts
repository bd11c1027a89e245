import { fieldDifferences, objectTitle, renderDiff, type ObjectDiff, type Oracle } from '../oracle/index.ts';
import { isHistoryPath } from '../oracle/masks.ts';
import { CLASS_OF, describePlan, type Plan } from '../plans/plan.ts';
import { sameWritePoint, type CommittedWrite } from '../run/controllerWrites.ts';
import type { RunResult, TracedReconcile } from '../run/checkRun.ts';
import { createsByObject, madeByOneStart } from './oneStart.ts';
import { findingReconcile, reconcileOf, type Finding, type FindingObject, type FindingReconcile } from './finding.ts';

// From a run to a finding, or to none: the end state against the oracle's, a write the controller
// made with nothing to do, a controller that never went quiet.

const MAX_RECONCILES = 6;

/** What a perturbed run is judged against besides the oracle: the reference run's own course. */
export interface ReferenceCourse {
  /** How many alike objects the reference run created (findings/oneStart.ts). */
  creates: ReadonlyMap<string, number>;
  /** Which request's reconcile last wrote each object (`kind namespace/name`) in the reference run. */
  writers: ReadonlyMap<string, string>;
}

const NO_COURSE: ReferenceCourse = { creates: new Map(), writers: new Map() };

/** The reference run's course, from its writes and reconciles. */
export function referenceCourse(run: RunResult, writes: readonly CommittedWrite[]): ReferenceCourse {
  const writers = new Map<string, string>();
  for (const w of writes) {
    const r = w.byController ? reconcileOf(w, run.reconciles) : undefined;
    if (r) writers.set(objectKey(w.kind, w.namespace, w.name), r.record.key);
  }
  return { creates: createsByObject(writes), writers };
}

/** A perturbed run whose end state is not the reference's. */
export function endStateFinding(plan: Plan, run: RunResult, oracle: Oracle, replay: string, reference: ReferenceCourse = NO_COURSE): Finding | undefined {
  const diffs = oracle.judge(run.endState);
  if (diffs.length === 0) return undefined;
  const reconciles = diverging(plan, run, diffs, reference);
  const writtenAt = writeSites(run, diffs);
  return {
    class: CLASS_OF[plan.kind],
    summary: `${describePlan(plan)}: the end state differs from every reference run — ${countDiffs(diffs)}`,
    plan,
    perturbation: describePlan(plan),
    diff: renderDiff(diffs, oracle.names(run.endState)),
    objects: diffs.map((d) => ({ id: d.id, change: d.change, ...(d.change === 'changed' ? { fields: d.fields } : {}) })),
    reconciles,
    replay,
    ...(plan.kind === 'crash-after-write' && madeByOneStart(run, diffs, reference.creates) ? { madeByOneStart: true } : {}),
    ...(writtenAt ? { writtenAt } : {}),
  };
}

/** Writes a quiet controller made when every key was reconciled again with nothing changed. */
export function resyncFinding(run: RunResult, replay: string): Finding | undefined {
  const writes = run.resyncWrites;
  if (writes.length === 0) return undefined;
  const plan: Plan = { kind: 'resync-when-quiet' };
  const described = describeWrites(writes);
  return {
    class: 'not-idempotent',
    summary: `reconciled again with nothing changed, it wrote anyway: ${described.slice(0, 3).join('; ')}${described.length > 3 ? `; and ${described.length - 3} more` : ''}`,
    plan,
    perturbation: describePlan(plan),
    diff: described.join('\n'),
    objects: writtenObjects(writes),
    reconciles: unique(writes.map((w) => reconcileOf(w, run.reconciles))).slice(0, MAX_RECONCILES).map(findingReconcile),
    replay,
  };
}

/** A run that did not go quiet within its budget: the writes it kept making. */
export function neverQuietFinding(run: RunResult, plan: Plan | undefined, replay: string): Finding {
  const controllerWrites = run.writes.filter((w) => w.byController);
  // The loop: what it wrote in the last seconds of the run (a write long before its end is no loop).
  const end = run.endedAtMs ?? controllerWrites.at(-1)?.atMs ?? 0;
  const recent = controllerWrites.filter((w) => w.atMs >= end - 3000);
  const described = describeWrites(recent);
  const busy = [...new Set(run.reconciles.slice(-5).map((r) => r.record.key))];
  const loop = described.length
    ? `it kept writing ${keptWriting(recent, described, run.writes)}`
    : (run.notQuietBecause ?? `its queue never emptied (reconciles without end${busy.length ? `, the last of ${busy.join(', ')}, writing nothing` : ''})`);
  const p: Plan = plan ?? { kind: 'resync-when-quiet' };
  return {
    class: plan ? CLASS_OF[plan.kind] : 'not-idempotent',
    summary: `${plan ? `${describePlan(plan)}: ` : ''}the controller never went quiet: ${loop}`,
    plan: p,
    perturbation: plan ? describePlan(plan) : 'none (an unperturbed run)',
    diff: [...new Set(described)].join('\n'),
    objects: writtenObjects(recent),
    reconciles: unique(recent.map((w) => reconcileOf(w, run.reconciles))).slice(-MAX_RECONCILES).map(findingReconcile),
    replay,
  };
}

/**
 * The writes a loop kept making, the most made first with how often (a one-off write the run also
 * made is no loop), and who else wrote the most written object meanwhile: the cluster's own
 * controller that put back what the controller undid, as kube-root-ca.crt is.
 */
function keptWriting(recent: readonly CommittedWrite[], described: readonly string[], all: readonly CommittedWrite[]): string {
  const counts = new Map<string, number>();
  for (const d of described) counts.set(d, (counts.get(d) ?? 0) + 1);
  const ranked = [...counts].sort((a, b) => b[1] - a[1]);
  const text = ranked.slice(0, 4).map(([d, n]) => (n > 1 ? `${d} (${n} times)` : d)).join('; ');
  const top = recent[described.indexOf(ranked[0]![0])];
  if (!top || ranked[0]![1] < 2) return text;
  const since = recent.find((w) => w.kind === top.kind && w.namespace === top.namespace && w.name === top.name)!.atMs;
  const others = [...new Set(all.filter((w) => !w.byController && w.atMs >= since && w.kind === top.kind && w.namespace === top.namespace && w.name === top.name && w.writer).map((w) => w.writer!))];
  return others.length ? `${text}, with ${others.join(', ')} writing ${top.kind} ${top.namespace ? `${top.namespace}/` : ''}${top.name} back in between` : text;
}

/**
 * `update ConfigMap default/web (.data.stamp, .metadata.labels.rev)`, one per write. A time the
 * write changed is named too: between two runs a time is no difference, but a write that only
 * moves a time on is what a not-idempotent controller does.
 */
function describeWrites(writes: readonly CommittedWrite[]): string[] {
  return writes.map((w) => {
    const fields = w.previous ? fieldDifferences(w.previous, w.object).filter((d) => !isHistoryPath(d.path)).map((d) => d.path) : [];
    return `${w.point?.request ?? w.verb} ${w.kind} ${w.namespace ? `${w.namespace}/` : ''}${w.name}${fields.length ? ` (${fields.slice(0, 4).join(', ')}${fields.length > 4 ? ', …' : ''})` : ''}`;
  });
}

/**
 * The objects the writes changed, as an end state's differences name them (created: `extra`,
 * deleted: `missing`), each once, with every field its writes changed (`expected`: before them).
 */
function writtenObjects(writes: readonly CommittedWrite[]): FindingObject[] {
  const objects = new Map<string, FindingObject>();
  for (const w of writes) {
    const id = `${w.kind} ${w.namespace ? `${w.namespace}/` : ''}${w.pointName}`;
    const change = w.verb === 'create' ? 'extra' : w.verb === 'delete' ? 'missing' : 'changed';
    const o = objects.get(id) ?? { id, change, ...(change === 'changed' ? { fields: [] } : {}) };
    objects.set(id, o);
    if (o.change !== 'changed' || !w.previous) continue;
    for (const d of fieldDifferences(w.previous, w.object).filter((d) => !isHistoryPath(d.path))) {
      const known = o.fields!.find((f) => f.path === d.path);
      if (known) known.got = d.got;
      else o.fields!.push(d);
    }
  }
  return [...objects.values()];
}

/** The controller's last write in this run of the object a difference names (a write of one of its name since deleted and made again is not one of it). */
function lastWriteOf(run: RunResult, d: ObjectDiff): CommittedWrite | undefined {
  const object = d.change === 'missing' ? d.expected : d.got;
  const id = objectKey(kindOfId(d.id), object.metadata.namespace ?? '', object.metadata.name ?? '');
  const uid = d.change === 'missing' ? undefined : object.metadata.uid;
  return run.writes.findLast((w) => w.byController && objectKey(w.kind, w.namespace, w.name) === id && (uid === undefined || w.object.metadata.uid === uid));
}

/**
 * Where the controller's code made the last write of each differing object (`file:line`, as the
 * TypeScript host and the Go library record the client's caller), by the object's id; objects it
 * did not write, or writes with no caller recorded, are left out.
 */
function writeSites(run: RunResult, diffs: readonly ObjectDiff[]): Record<string, string> | undefined {
  const sites: Record<string, string> = {};
  for (const d of diffs) {
    const write = lastWriteOf(run, d);
    const r = write ? reconcileOf(write, run.reconciles) : undefined;
    const record = write && r?.record.writes.findLast((w) => w.name === write.name && (w.namespace ?? '') === write.namespace && !w.error && (w.resourceVersion === write.resourceVersion || (write.verb === 'delete' && w.verb === 'delete')));
    if (record?.caller) sites[d.id] = `${record.caller.file}:${record.caller.line}`;
  }
  return Object.keys(sites).length ? sites : undefined;
}

/**
 * The reconciles that last wrote each differing object, and the last ones after them of the
 * request that wrote it last in the reference run; for an object this run never wrote (a
 * missing one, or one made again under the name of one it wrote), the last reconciles of the request whose reconcile wrote it in the reference run;
 * failing both, the first ones after a restart. And the reconcile a kill cut short.
 */
function diverging(plan: Plan, run: RunResult, diffs: readonly ObjectDiff[], reference: ReferenceCourse): FindingReconcile[] {
  const found: (TracedReconcile | undefined)[] = [];
  const ids = new Set<string>();
  for (const d of diffs) {
    const object = d.change === 'missing' ? d.expected : d.got;
    const id = objectKey(kindOfId(d.id), object.metadata.namespace ?? '', object.metadata.name ?? '');
    ids.add(id);
    const lastWrite = lastWriteOf(run, d);
    const r = lastWrite ? reconcileOf(lastWrite, run.reconciles) : undefined;
    if (r) found.push(r);
    // The request that wrote it last in the reference run, reconciled here after that without
    // writing it: where this run left it as it was (a restart that skipped the step).
    const writer = reference.writers.get(id);
    if (writer !== undefined) found.push(...run.reconciles.filter((t) => t.record.key === writer && (!r || later(t, r))).slice(-2));
    // The first write of it made on a stale read of it: where a lost update began (the last write
    // only carries the loss on).
    found.push(run.reconciles.find((t) => wroteAfterStaleRead(t, id)));
  }
  // A stale view's first write of what differs after the write it does not show: a lost update
  // (a list written back from a cache without the last entry) starts there, not at the last write.
  if (plan.kind === 'stale-after-write' || plan.kind === 'stale-restart-after-write') {
    const at = run.writes.findIndex((w) => w.byController && w.point && sameWritePoint(w.point, plan.write));
    const next = at < 0 ? undefined : run.writes.slice(at + 1).find((w) => w.byController && ids.has(objectKey(w.kind, w.namespace, w.name)));
    if (next) found.push(reconcileOf(next, run.reconciles));
  }
  if (found.length === 0) {
    // Nothing tells which reconciles should have written them: show the reconciles after the perturbation.
    const restarted = run.reconciles.filter((r) => r.incarnation > 1);
    found.push(...(restarted.length ? restarted : run.reconciles).slice(0, 3));
  }
  // Where a kill struck: the reconcile it cut short, whose remaining writes were never made.
  found.push(...run.reconciles.filter((t) => t.killed));
  const inOrder = unique(found).sort((a, b) => a.incarnation - b.incarnation || a.record.seq - b.record.seq);
  return inOrder.slice(0, MAX_RECONCILES).map(findingReconcile);
}

/** The reconcile read object `id` (`kind namespace/name`) older than its controller had written it, and wrote it. */
function wroteAfterStaleRead({ record }: TracedReconcile, id: string): boolean {
  const stale = (record.staleReads ?? []).some((s) => objectKey(qualifiedKind(s.apiVersion, s.kind), s.namespace ?? '', s.name) === id);
  return stale && record.writes.some((w) => !w.error && objectKey(qualifiedKind(w.apiVersion, w.kind), w.namespace ?? '', w.name) === id);
}

/** `apps/v1`, `Deployment` → `apps/Deployment`; a core kind as it is. */
function qualifiedKind(apiVersion: string, kind: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? kind : `${apiVersion.slice(0, slash)}/${kind}`;
}

function later(a: TracedReconcile, b: TracedReconcile): boolean {
  return a.incarnation > b.incarnation || (a.incarnation === b.incarnation && a.record.seq > b.record.seq);
}

function objectKey(kind: string, namespace: string, name: string): string {
  return `${kind} ${namespace}/${name}`;
}

/** `apps/Deployment default/web` → `apps/Deployment`. */
function kindOfId(id: string): string {
  return id.slice(0, id.indexOf(' '));
}

function countDiffs(diffs: readonly ObjectDiff[]): string {
  const n = (change: ObjectDiff['change']) => diffs.filter((d) => d.change === change).length;
  const parts = [
    n('missing') && `${n('missing')} object(s) missing`,
    n('extra') && `${n('extra')} unexpected object(s)`,
    n('changed') && `${n('changed')} object(s) with other values`,
  ].filter(Boolean);
  // The example: the object highest up its owners (the shortest identity), as the run named it.
  const first = diffs.reduce((a, b) => (b.id.length < a.id.length ? b : a));
  const path = first.change === 'changed' ? first.fields[0]?.path : undefined;
  const example = first.change === 'missing' ? objectTitle(first.expected) : `${objectTitle(first.got)}${path && !path.includes('<') ? ` ${path}` : ''}`;
  return `${parts.join(', ')} (${example})`;
}

function unique<T>(items: readonly (T | undefined)[]): T[] {
  return [...new Set(items.filter((i): i is T => i !== undefined))];
}
