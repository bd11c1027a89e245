import { describeStaleRead, describeTrigger } from '../../runtime/index.ts';
import type { FieldDifference, ObjectDiff } from '../oracle/index.ts';
import type { FindingClass, Plan } from '../plans/plan.ts';
import type { CommittedWrite } from '../run/controllerWrites.ts';
import type { TracedReconcile } from '../run/checkRun.ts';

// A bug `check` found: its class, what was done to the run, how its end state differs from the
// reference's, the reconciles where the run went its own way, and the command that replays it.
// This is also the shape of a finding in the JSON report (docs/check.md documents it).

/** A reconcile as a finding names it: what it read, at which resourceVersion, and what it wrote. */
export interface FindingReconcile {
  seq: number;
  /** Which start of the controller ran it (a restart begins a new one). */
  incarnation: number;
  controller: string;
  key: string;
  trigger: string;
  read: { kind: string; key: string; resourceVersion: string | null };
  cacheResourceVersion: string;
  writes: string[];
  /** The controller was killed while it ran (its writes are those it made until then). */
  killed?: true;
  /** Its reads of objects older than its controller's own writes of them (`stale read: …`). */
  staleReads?: string[];
}

export interface FindingObject {
  id: string;
  /** `recreated`: deleted and made again, which the reference runs did not (findings/recreated.ts). */
  change: ObjectDiff['change'] | 'recreated';
  fields?: FieldDifference[];
}

export interface Finding {
  class: FindingClass;
  summary: string;
  plan: Plan;
  perturbation: string;
  /** Expected against got, as lines (`- ` expected, `+ ` got). */
  diff: string;
  objects: FindingObject[];
  reconciles: FindingReconcile[];
  /** The command that replays this run. */
  replay: string;
  /** Other perturbations whose runs ended with the same symptoms: the same bug, explained more simply by this one's. */
  alsoReproducedBy?: Reproduction[];
  /** Its unexpected objects were each made by one start of the controller alone (findings/oneStart.ts); not in the report. */
  madeByOneStart?: boolean;
  /** Per object (its id), the line of the controller's code that last wrote it in this run, `file:line`; not in the report. */
  writtenAt?: Record<string, string>;
}

/** Another run that reproduced a finding: what was done to it, the class that alone would give, its replay. */
export interface Reproduction {
  class: FindingClass;
  perturbation: string;
  plan: Plan;
  replay: string;
}

export function findingReconcile({ incarnation, record: r, killed }: TracedReconcile): FindingReconcile {
  return {
    seq: r.seq,
    incarnation,
    controller: r.controller,
    key: r.key,
    trigger: describeTrigger(r),
    read: { kind: r.forKind.kind, key: r.key, resourceVersion: r.objectResourceVersion ?? null },
    cacheResourceVersion: r.cacheResourceVersion,
    writes: r.writes.map((w) => `${w.verb} ${w.kind} ${w.namespace ? `${w.namespace}/` : ''}${w.name} → ${w.error ? `${w.error.code ?? ''} ${w.error.reason ?? ''}`.trim() || w.error.message : `rv ${w.resourceVersion ?? '-'}`}`),
    ...(killed ? { killed } : {}),
    ...(r.staleReads?.length ? { staleReads: r.staleReads.map(describeStaleRead) } : {}),
  };
}

/**
 * The reconcile that made a committed write: its write answered with the write's resourceVersion;
 * for a delete, which is answered without the object (so without one), the last reconcile whose
 * delete of that object succeeded.
 */
export function reconcileOf(write: CommittedWrite, reconciles: readonly TracedReconcile[]): TracedReconcile | undefined {
  const same = (w: TracedReconcile['record']['writes'][number]) => w.name === write.name && (w.namespace ?? '') === write.namespace;
  const byVersion = reconciles.find(({ record }) => record.writes.some((w) => same(w) && w.resourceVersion === write.resourceVersion));
  if (byVersion || write.verb !== 'delete') return byVersion;
  const uid = write.object.metadata.uid;
  return reconciles.findLast(({ record }) => record.writes.some((w) => same(w) && w.verb === 'delete' && !w.error && w.resourceVersion === undefined && (w.uid === undefined || uid === undefined || w.uid === uid)));
}

const MAX_REPRODUCTIONS_SHOWN = 5;

/** A finding of objects deleted and made again, whose end state matched the reference's. */
export function isRecreation(f: Finding): boolean {
  return f.objects.length > 0 && f.objects.every((o) => o.change === 'recreated');
}

/** One paragraph for the terminal. */
export function describeFinding(f: Finding, n: number): string {
  const lines = [`FINDING ${n} (${f.class}): ${f.summary}`, `  perturbation: ${f.perturbation}`];
  if (f.diff) lines.push(`  ${isRecreation(f) ? 'deleted and made again, against the reference runs' : 'end state against the reference runs'}:`, ...f.diff.split('\n').map((l) => `    ${l}`));
  if (f.reconciles.length) {
    lines.push('  where the run went its own way:');
    for (const r of f.reconciles) {
      const who = `#${r.seq}${r.incarnation > 1 ? ` (after restart ${r.incarnation - 1})` : ''} ${r.controller} ${r.key}`;
      // A controller built without For (Watches, WatchesRawSource) names no kind its keys are of.
      const read = r.read.kind ? `read ${r.read.kind} ${r.read.key} at rv ${r.read.resourceVersion ?? '(not in cache)'}` : `key ${r.read.key} (no For kind: what it read is not known)`;
      lines.push(`    ${who}: ${r.trigger}; ${read}, cache at rv ${r.cacheResourceVersion}`);
      for (const stale of r.staleReads ?? []) lines.push(`      warning: ${stale}`);
      for (const w of r.writes) lines.push(`      ${w}`);
      if (r.killed) lines.push('      killed here, before it finished');
    }
  }
  lines.push(`  replay: ${f.replay}`);
  const also = f.alsoReproducedBy ?? [];
  if (also.length) {
    lines.push(`  also reproduced by ${also.length} other run(s):`);
    for (const r of also.slice(0, MAX_REPRODUCTIONS_SHOWN)) lines.push(`    ${r.perturbation} (${r.class})`);
    if (also.length > MAX_REPRODUCTIONS_SHOWN) lines.push(`    and ${also.length - MAX_REPRODUCTIONS_SHOWN} more (the JSON report lists them all, with their replays)`);
  }
  return lines.join('\n');
}
