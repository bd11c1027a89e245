// A perturbation plan: what `check` does to one run, written so it can be printed, stored in the
// report and given back on the command line (`--plan`) to replay the run. Steps happen at points of
// the controller's own history — after its n-th write of some object, the n-th change of an
// object it watches, once it is quiet — so a replay perturbs the same moment, however fast the
// machine is.

/** The classes of bug `check` looks for, as Sieve (OSDI'22) names the first three. */
export type FindingClass = 'stale-state' | 'intermediate-state' | 'unobserved-state' | 'not-idempotent';

/**
 * A write of the controller's that changed an object, as a plan names it: what it did to the
 * object (created it; changed it, through a PUT, a patch or /status alike; deleted it or marked it
 * for deletion), the object's kind and namespace/name (a generated name by its prefix and `*`),
 * and which occurrence of that write (1: the first).
 */
export interface WritePoint {
  verb: 'create' | 'update' | 'delete';
  /** `apps/Deployment`, `ConfigMap`: the group and kind, as the oracle names them. */
  kind: string;
  namespace: string;
  /** The name, or a generated name's prefix followed by `*`. */
  name: string;
  occurrence: number;
  /**
   * The request, when it is not named by `verb`: `patch`, `apply` (server-side apply),
   * `update status`, `patch status`. Only what a person reads: a point matches whatever made it.
   */
  request?: string;
}

/** A change of an object the controller watches, by anyone: its `occurrence`-th MODIFIED or DELETED. */
export interface ChangePoint {
  kind: string;
  namespace: string;
  name: string;
  occurrence: number;
}

export type Plan =
  /** Killed (SIGKILL) right after the write, then started again: what it does twice, or leaves half done. */
  | { kind: 'crash-after-write'; write: WritePoint }
  /** Right after the write, the controller's watch events are withheld and every key is reconciled again: reconciles on a cache older than its own write. The lag ends once the controller is quiet, after `lagMs` at most. */
  | { kind: 'stale-after-write'; write: WritePoint; lagMs: number }
  /**
   * Killed right after the write and started again against a cache from before it (a lagging API
   * server), which catches up once the controller is quiet on it, `lagMs` after it synced at most.
   * With `viewAfter`, the cache is as it was right after that earlier change (an object's deletion,
   * before it was made again under its name): the API server lags that far, as Sieve's time travel.
   */
  | { kind: 'stale-restart-after-write'; write: WritePoint; lagMs: number; viewAfter?: ChangePoint }
  /** The controller sees the change only together with the next one of the same object: the state in between is never observed. */
  | { kind: 'coalesce-change'; change: ChangePoint }
  /** From the change on, the controller's watch events are withheld until `changes` more changes happened; then its watches expire (410) and it relists, having missed the changes in between. */
  | { kind: 'relist-across-changes'; change: ChangePoint; changes: number }
  /** Once the controller is quiet, every key is reconciled again (as a resync or a restart would): nothing may be written. */
  | { kind: 'resync-when-quiet' }
  /** Killed right after someone else's change commits, before it reconciles it, then started again: what it kept in memory of the object before the change is lost. */
  | { kind: 'crash-after-change'; change: ChangePoint }
  /** Killed right after someone else's change commits and started again against a cache from before it (a lagging API server: time travel), which catches up once the controller is quiet on it, `lagMs` after it synced at most. */
  | { kind: 'stale-restart-after-change'; change: ChangePoint; lagMs: number };

export const CLASS_OF: Record<Plan['kind'], FindingClass> = {
  'crash-after-write': 'intermediate-state',
  'stale-after-write': 'stale-state',
  'stale-restart-after-write': 'stale-state',
  'coalesce-change': 'unobserved-state',
  'relist-across-changes': 'unobserved-state',
  'resync-when-quiet': 'not-idempotent',
  'crash-after-change': 'intermediate-state',
  'stale-restart-after-change': 'stale-state',
};

export function writeLabel(w: WritePoint): string {
  const object = `${w.kind} ${w.namespace ? `${w.namespace}/` : ''}${w.name}`;
  return `${w.request ?? w.verb} ${object}${w.occurrence > 1 ? ` (#${w.occurrence})` : ''}`;
}

export function changeLabel(c: ChangePoint): string {
  return `change #${c.occurrence} of ${c.kind} ${c.namespace ? `${c.namespace}/` : ''}${c.name}`;
}

/** One line a person reads: what was done to the run. */
export function describePlan(p: Plan): string {
  switch (p.kind) {
    case 'crash-after-write':
      return `killed right after \`${writeLabel(p.write)}\`, then restarted`;
    case 'stale-after-write':
      return `its watch events withheld right after \`${writeLabel(p.write)}\` while every key was reconciled on that cache (at most ${p.lagMs} ms)`;
    case 'stale-restart-after-write':
      return `killed right after \`${writeLabel(p.write)}\` and restarted against a cache from ${p.viewAfter ? `right after ${changeLabel(p.viewAfter)}` : 'before that write'}, which caught up once it had acted on it (at most ${p.lagMs} ms)`;
    case 'coalesce-change':
      return `${changeLabel(p.change)} delivered only together with the next change of it`;
    case 'relist-across-changes':
      return `watch events withheld from ${changeLabel(p.change)} across ${p.changes} more change(s), then its watches expired (410) and it relisted`;
    case 'resync-when-quiet':
      return 'once quiet, every key reconciled again';
    case 'crash-after-change':
      return `killed right after ${changeLabel(p.change)}, before it reconciled it, then restarted`;
    case 'stale-restart-after-change':
      return `killed right after ${changeLabel(p.change)} and restarted against a cache from before that change, which caught up once it had acted on it (at most ${p.lagMs} ms)`;
  }
}
