import { SCENARIO_USER_AGENT } from '../../sim/index.ts';
import type { CommittedWrite } from '../run/controllerWrites.ts';
import { changeShape } from './changeShape.ts';
import type { Plan } from './plan.ts';

// Which perturbations are worth a run, read off the reference run, as Sieve prunes its test plans:
// a crash or a stale cache matters right after a write the controller made; a coalesced change or
// a relist matters where an object the controller watches changed again later, so there is a state
// in between to miss (what it does not watch it cannot miss: a Pod's changes, to a controller of
// Deployments, are no plan); a restart, on a fresh or a stale view, matters at any change someone
// else made of what it watches.
// Writes alike (the same verb on the same kind) are tried in turn, kind by kind, so a short budget
// still covers every kind of write and every class; the order is fixed, so a check repeats. Of the
// changes the simulated cluster's own controllers make (--workloads), one of each shape — the same
// writer changing the same fields of the same kind — stands for the rest: a rollout moves every
// Deployment's status alike, and hiding one such state tests what hiding another would. The
// scenario's and the controller's own changes are all kept.

/** How long a stale cache lags behind: long enough for reconciles on it to act. */
export const STALE_LAG_MS = 1500;

/** `watched`: the resources the controller watched in the reference run (`plural` or `plural.group`). */
export function planRuns(reference: { writes: readonly CommittedWrite[]; watched: ReadonlySet<string> }): Plan[] {
  // Every write of the controller's: after its last one too, a restart must find nothing to redo.
  const byKind = roundRobin(reference.writes.filter((w) => w.byController && w.point), (w) => `${w.verb} ${w.kind}`);

  const crashes: Plan[] = byKind.map((w) => ({ kind: 'crash-after-write', write: w.point! }));
  const stale: Plan[] = byKind.map((w) => ({ kind: 'stale-after-write', write: w.point!, lagMs: STALE_LAG_MS }));
  const staleRestarts: Plan[] = byKind.map((w) => ({ kind: 'stale-restart-after-write', write: w.point!, lagMs: STALE_LAG_MS }));

  // Changes followed by another change of the same object (by anyone).
  const changes = reference.writes.filter((w) => w.change && reference.watched.has(w.group ? `${w.resource}.${w.group}` : w.resource));
  // An object deleted and made again under its name counts: its deletion is a state to miss (the
  // controller would see only an object with another uid), though the creation is no change.
  const sameName = (a: CommittedWrite, b: CommittedWrite): boolean => a.kind === b.kind && a.namespace === b.namespace && a.pointName === b.pointName;
  const remade = (w: CommittedWrite): boolean => w.verb === 'delete' && reference.writes.some((later) => later.verb === 'create' && later.atMs >= w.atMs && later !== w && sameName(later, w));
  const followed = onePerClusterShape(changes.filter((w) => remade(w) || changes.some((later) => later.change!.occurrence === w.change!.occurrence + 1 && later.change!.kind === w.change!.kind && later.change!.namespace === w.change!.namespace && later.change!.name === w.change!.name)));
  // Changes made by others first: the controller's own it mostly already knows about.
  const ordered = roundRobin([...followed.filter((w) => !w.byController), ...followed.filter((w) => w.byController)], (w) => `${w.kind} ${w.namespace}/${w.pointName}`);
  const coalesced: Plan[] = ordered.map((w) => ({ kind: 'coalesce-change', change: w.change! }));
  const relists: Plan[] = ordered.map((w) => ({ kind: 'relist-across-changes', change: w.change!, changes: 1 }));

  // A restart between another's change and its reconcile loses what the controller remembered of
  // the object before it: every change by others counts, the last one of an object too.
  const othersChanges = roundRobin(onePerClusterShape(changes.filter((w) => !w.byController)), (w) => `${w.kind} ${w.namespace}/${w.pointName}`);
  const changeCrashes: Plan[] = othersChanges.map((w) => ({ kind: 'crash-after-change', change: w.change! }));
  // The same restart against a cache from before the change (time travel): the object as it was,
  // a parent not yet deleted or a spec before the user's edit, is what it acts on first.
  const changeStaleRestarts: Plan[] = othersChanges.map((w) => ({ kind: 'stale-restart-after-change', change: w.change!, lagMs: STALE_LAG_MS }));

  // Time travel, as Sieve tests for it: an object someone deleted, held terminating by a finalizer,
  // then made again under its name; the controller restarted after its last write against an API
  // server that still shows the old object terminating (and what it had then), as a lagging
  // member of an HA control plane would. Cleaning up by name on that view deletes the new object's.
  const last = [...reference.writes].reverse().find((w) => w.byController && w.point);
  const terminating = (w: CommittedWrite): boolean => w.verb === 'delete' && !!w.object.metadata.deletionTimestamp && (w.object.metadata.finalizers?.length ?? 0) > 0;
  const remadeBefore = (w: CommittedWrite, end: CommittedWrite): boolean => reference.writes.some((later) => later.verb === 'create' && later.atMs >= w.atMs && later.atMs <= end.atMs && later !== w && sameName(later, w));
  const timeTravels: Plan[] = last
    ? changes.filter((w) => !w.byController && terminating(w) && remadeBefore(w, last)).map((w) => ({ kind: 'stale-restart-after-write', write: last.point!, lagMs: STALE_LAG_MS, viewAfter: w.change! }))
    : [];

  return interleave([crashes, stale, coalesced, staleRestarts, relists, changeCrashes, changeStaleRestarts, timeTravels]);
}

/** The changes, with only the first of each shape among those the cluster's own controllers made. */
function onePerClusterShape(changes: readonly CommittedWrite[]): CommittedWrite[] {
  const seen = new Set<string>();
  return changes.filter((w) => {
    if (w.byController || w.writer === undefined || w.writer === SCENARIO_USER_AGENT) return true;
    const shape = `${w.kind} ${w.writer} ${changeShape(w.previous, w.object)}`;
    if (seen.has(shape)) return false;
    seen.add(shape);
    return true;
  });
}

/** Items grouped by `key`, then taken one from each group in turn (groups in first-seen order). */
function roundRobin<T>(items: readonly T[], key: (t: T) => string): T[] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const g = groups.get(k);
    if (g) g.push(item);
    else groups.set(k, [item]);
  }
  return interleave([...groups.values()]);
}

function interleave<T>(lists: readonly (readonly T[])[]): T[] {
  const out: T[] = [];
  for (let i = 0; lists.some((l) => i < l.length); i++) for (const l of lists) if (i < l.length) out.push(l[i]!);
  return out;
}
