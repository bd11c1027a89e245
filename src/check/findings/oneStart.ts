import type { ObjectDiff } from '../oracle/index.ts';
import type { CommittedWrite } from '../run/controllerWrites.ts';
import type { RunResult } from '../run/checkRun.ts';
import { reconcileOf } from './finding.ts';

// A crash makes a controller start again, and its restart reconciles every key at once, on a cache
// that fills meanwhile: a controller that trusts its cache to show what it just created may then
// create it twice — in one and the same start. The crash did not leave that behind; its cache
// did. Such a crash run explains nothing more simply than a stale cache does.

/** How many objects alike (`kind namespace/point name`) the controller created in a run. */
export function createsByObject(writes: readonly CommittedWrite[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const w of writes) if (w.byController && w.verb === 'create') counts.set(alike(w), (counts.get(alike(w)) ?? 0) + 1);
  return counts;
}

/**
 * Whether the unexpected objects the controller made in the run are no more than what its starts,
 * each alone, made beyond the reference run: then no start had to forget what an earlier one made.
 * (Killed after making one, restarted and making two more, it left one for the crash and one for
 * its cache: the crash is needed to explain them.)
 */
export function madeByOneStart(run: RunResult, diffs: readonly ObjectDiff[], reference: ReadonlyMap<string, number>): boolean {
  const made = diffs.flatMap((d) => {
    if (d.change !== 'extra') return [];
    const create = run.writes.find((w) => w.byController && w.verb === 'create' && w.kind === kindOfId(d.id) && w.namespace === (d.got.metadata.namespace ?? '') && w.name === d.got.metadata.name);
    return create ? [create] : [];
  });
  if (made.length === 0) return false;
  const startOf = (w: CommittedWrite) => reconcileOf(w, run.reconciles)?.incarnation;
  return [...new Set(made.map(alike))].every((key) => {
    const perStart = new Map<number | undefined, number>();
    for (const w of run.writes) if (w.byController && w.verb === 'create' && alike(w) === key) perStart.set(startOf(w), (perStart.get(startOf(w)) ?? 0) + 1);
    if (perStart.has(undefined)) return false;
    const beyond = [...perStart.values()].reduce((n, creates) => n + Math.max(0, creates - (reference.get(key) ?? 0)), 0);
    return made.filter((w) => alike(w) === key).length <= beyond;
  });
}

function alike(w: CommittedWrite): string {
  return `${w.kind} ${w.namespace}/${w.pointName}`;
}

/** `apps/Deployment default/web-* of …` → `apps/Deployment`. */
function kindOfId(id: string): string {
  return id.slice(0, id.indexOf(' '));
}
