import { SCENARIO_USER_AGENT } from '../../sim/index.ts';
import { CLASS_OF, describePlan, type Plan } from '../plans/plan.ts';
import type { CommittedWrite } from '../run/controllerWrites.ts';
import type { RunResult } from '../run/checkRun.ts';
import { findingReconcile, reconcileOf, type Finding } from './finding.ts';

// Over-deletion that heals itself: a controller that deletes children from a stale or incomplete
// view and then makes them again ends as the reference run did, but for uids, which the oracle
// sets aside. A user saw Pods restarted, a volume's data gone. So, as Sieve's oracle compares the
// history of deletions and not only the end state, a run whose controller deleted and made again
// (a delete followed, later in the run, by a create under the same name — not a generated one —
// the controller's, or the cluster's own, as a StatefulSet makes its Pod again) more objects than
// any reference run did is a finding. A controller whose normal course remakes things (a rollout)
// does as much in its reference runs, and is held only to that; an extra it made and removed
// again was not remade, and is no object a user had.

const MAX_RECONCILES = 6;

/** Per object alike (`kind namespace/point name`), the controller's deletes that a create of the same name, not the scenario's, followed. */
export function remadeByObject(writes: readonly CommittedWrite[]): Map<string, CommittedWrite[]> {
  const out = new Map<string, CommittedWrite[]>();
  const pending = new Map<string, CommittedWrite[]>();
  const seen = new Set<string>();
  for (const w of writes) {
    // Under a generated name, which object is which is not known: a surplus made on a stale cache
    // and removed, then another made for a scale-up, is no member made again.
    if (w.pointName.endsWith('*')) continue;
    // Made again by the controller, or by the cluster's own (a StatefulSet's Pod the controller deleted).
    if (w.verb === 'create' && (w.byController || w.writer !== SCENARIO_USER_AGENT)) {
      const deleted = pending.get(alike(w))?.shift();
      if (deleted) out.set(alike(w), [...(out.get(alike(w)) ?? []), deleted]);
      continue;
    }
    if (!w.byController || w.verb !== 'delete') continue;
    // A delete that marks for deletion and the removal that follows are one deletion.
    const uid = `${alike(w)} ${w.object.metadata.uid ?? w.resourceVersion}`;
    if (seen.has(uid)) continue;
    seen.add(uid);
    pending.set(alike(w), [...(pending.get(alike(w)) ?? []), w]);
  }
  return out;
}

/** The most objects alike any reference run deleted and made again. */
export function mostRemade(references: readonly (readonly CommittedWrite[])[]): Map<string, number> {
  const most = new Map<string, number>();
  for (const writes of references) for (const [key, deletes] of remadeByObject(writes)) most.set(key, Math.max(most.get(key) ?? 0, deletes.length));
  return most;
}

/** A perturbed run that ended as the reference did, its controller having deleted and made again more than the reference did. */
export function recreatedFinding(plan: Plan, run: RunResult, replay: string, referenceRemade: ReadonlyMap<string, number>): Finding | undefined {
  const over: { key: string; remade: number; reference: number; writes: CommittedWrite[] }[] = [];
  for (const [key, deletes] of remadeByObject(run.writes)) {
    const reference = referenceRemade.get(key) ?? 0;
    if (deletes.length > reference) over.push({ key, remade: deletes.length, reference, writes: deletes });
  }
  if (over.length === 0) return undefined;
  const lines = over.map((o) => `~ ${o.key}: deleted and made again ${times(o.remade)} (the reference runs: ${o.reference === 0 ? 'never' : `at most ${times(o.reference)}`})`);
  const first = over[0]!;
  return {
    class: CLASS_OF[plan.kind],
    summary: `${describePlan(plan)}: the controller deleted ${first.key} and made it again, ${times(first.remade - first.reference)} more than the reference runs did${over.length > 1 ? ` (and ${over.length - 1} more object(s))` : ''}: the end state matches but for uids, yet what it held (a Pod's process, its data) was lost`,
    plan,
    perturbation: describePlan(plan),
    diff: lines.join('\n'),
    objects: over.map((o) => ({ id: o.key, change: 'recreated' as const })),
    reconciles: [...new Set(over.flatMap((o) => o.writes.map((w) => reconcileOf(w, run.reconciles))).filter((r) => r !== undefined))].slice(0, MAX_RECONCILES).map(findingReconcile),
    replay,
  };
}

function times(n: number): string {
  return n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`;
}

function alike(w: CommittedWrite): string {
  return `${w.kind} ${w.namespace}/${w.pointName}`;
}

