import { faultArgsFrom, faultNamed, type SimClusterApi } from '../../sim/index.ts';
import type { Clock, TimerHandle } from '../../shared/clock.ts';
import type { KubeObject } from '../../shared/k8s.ts';
import type { LaunchedSim } from '../../runtime/index.ts';
import { describePlan, type ChangePoint, type Plan } from '../plans/plan.ts';
import { sameChangePoint, sameWritePoint, type CommittedWrite, type ControllerWrites } from './controllerWrites.ts';
import { releaseLeases } from './leaseRelease.ts';

// A plan carried out on a running run. It waits for its point — the controller's write, a change
// of an object — in the commit listener, so it acts before anyone hears of the write (a crash plan
// kills the controller before the write's answer, or the change's event, reaches it). What it does
// to what the controller sees goes through the simulated cluster's fault table, scoped to the
// controller's user, so every other client (the scenario, the sim's own controllers) sees the
// cluster as it is.

/** A stale view holds while the restarted controller starts (its lag counts from its sync). */
const STALE_VIEW_HOLD_MS = 120_000;

export interface PerturbationHooks {
  sim: LaunchedSim;
  writes: ControllerWrites;
  controllerUser: string;
  /** Kills the controller and starts it again (`beforeStart` runs between, `afterSync` once the new one synced). */
  restart(options?: { beforeStart?: () => void; afterSync?: () => void }): void;
  /** Every key of the controller reconciled again. */
  resync(): void;
  /** Something happened: the run is not quiet yet. */
  touch(): void;
  /** What the plan held back is let go, by whatever way (a lag's end, a relist, a held change delivered): the controller's view catches up. */
  released?(): void;
  /** What the plan's own windows (a lag, a withholding) are timed by; default real time. The debugger's stands still while it is stopped. */
  clock?: Clock;
}

/** One thing the plan did, for the report and the timeline. */
export interface AppliedStep {
  what: string;
  /** The cluster's resourceVersion when it was done. */
  resourceVersion: string;
  atMs: number;
}

export class Perturbation {
  readonly applied: AppliedStep[] = [];
  /** The plan's point came (its steps ran). */
  reached = false;
  /** A step that could not be done (the run then proves nothing). */
  error: string | undefined;
  private readonly plan: Plan;
  private readonly hooks: PerturbationHooks;
  private readonly unsubscribe: () => void;
  private readonly timers: TimerHandle[] = [];
  private readonly started = performance.now();
  /** relist-across-changes: changes still to come before the watches expire. */
  private changesLeft = 0;
  /** stale plans: the lag is over (the controller acted on it, or lagMs passed). */
  private lagEnded = false;
  /** coalesce-change: the rule that holds the change is set. */
  private armed = false;
  /** coalesce-change: the held change was delivered (folded into the next change, or let go). */
  private delivered = false;
  /** coalesce-change, relist-across-changes: the held object's name in this run (a generated one differs from the plan's). */
  private heldName: string | undefined;
  /** stale-restart-after-write with viewAfter: the resourceVersion right after that change. */
  private viewAt: number | undefined;

  constructor(plan: Plan, hooks: PerturbationHooks) {
    this.plan = plan;
    this.hooks = hooks;
    // Inside the cluster's commit: a step that fails is recorded, never thrown into the write.
    this.unsubscribe = hooks.writes.onWrite((w) => {
      try {
        this.onWrite(w);
      } catch (err) {
        this.error ??= (err as Error).message;
      }
    });
    // The first change of an object that exists already is held from the start; of one created
    // later, from its creation (arming before would hold its ADDED, not its first change).
    if (plan.kind === 'coalesce-change' && plan.change.occurrence === 1 && this.exists(plan.change)) {
      try {
        this.armCoalescing(plan.change.name);
      } catch (err) {
        this.error = (err as Error).message;
      }
    }
  }

  /** Called once the controller is quiet; answers true when it did something (the run goes on). */
  onQuiet(): boolean {
    if (this.plan.kind !== 'resync-when-quiet' || this.reached) return false;
    this.reached = true;
    this.note('every key reconciled again');
    this.hooks.resync();
    this.hooks.touch();
    return true;
  }

  /**
   * Called when the controller is idle but has not been told everything: what the plan holds is
   * let go once it has served its purpose. A lag (a stale cache, a stale view after a restart) ends
   * once the controller has acted on it — it reconciled on the stale cache and went quiet — rather
   * than only after lagMs, which is the most it lasts. Once the scenario is done, a relist waiting
   * for more changes relists now, and a coalesced change whose next change was to be the
   * controller's own answer to it (which it cannot make unseen) is delivered late. So is, before
   * then, a deletion held while only the controller's own finalizers keep the object: the next
   * change is its removal of them, and the scenario's next step (the object made again under its
   * name) would fail for what the controller was not shown. Answers true when it let something go.
   */
  letGo(scenarioDone: boolean): boolean {
    const p = this.plan;
    if ((p.kind === 'stale-after-write' || p.kind === 'stale-restart-after-write' || p.kind === 'stale-restart-after-change') && this.reached && !this.lagEnded) {
      this.endLag();
      return true;
    }
    if (p.kind === 'relist-across-changes' && this.reached && this.changesLeft > 0 && (scenarioDone || this.heldForOwnFinalizer(p.change))) {
      this.changesLeft = 0;
      this.relist();
      return true;
    }
    if (p.kind === 'coalesce-change' && this.reached && !this.delivered && (scenarioDone || this.heldForOwnFinalizer(p.change))) {
      this.deliverHeld(scenarioDone ? 'the held change delivered: no later change of the object came' : 'the held change delivered: the object waits, terminating, on finalizers only the controller removes');
      return true;
    }
    return false;
  }

  /**
   * The plan holds a change back until the next change comes (a relist across changes, a
   * coalesced change): the scenario may go on although the controller has not been told everything.
   */
  awaitingChange(): boolean {
    const p = this.plan;
    if (p.kind === 'relist-across-changes') return this.reached && this.changesLeft > 0;
    if (p.kind === 'coalesce-change') return this.reached && !this.delivered;
    return false;
  }

  dispose(): void {
    this.unsubscribe();
    for (const t of this.timers) t.cancel();
  }

  private onWrite(w: CommittedWrite): void {
    const p = this.plan;
    switch (p.kind) {
      case 'crash-after-write':
        if (this.reached || !w.point || !sameWritePoint(w.point, p.write)) return;
        this.reach(describePlan(p));
        this.restart();
        return;
      case 'stale-restart-after-write': {
        if (p.viewAfter && this.viewAt === undefined && w.change && sameChangePoint(w.change, p.viewAfter)) this.viewAt = Number(w.resourceVersion);
        if (this.reached || !w.point || !sameWritePoint(w.point, p.write)) return;
        if (p.viewAfter && this.viewAt === undefined) return;
        this.reach(describePlan(p));
        this.restartStale(w, p.lagMs, this.viewAt);
        return;
      }
      case 'stale-after-write':
        if (this.reached || !w.point || !sameWritePoint(w.point, p.write)) return;
        this.reach(describePlan(p));
        this.fault('withhold-events', { user: this.hooks.controllerUser });
        this.hooks.resync();
        this.later(p.lagMs, () => this.endLag());
        return;
      case 'coalesce-change':
        // Armed once the change before it (or the creation) happened, so that it holds this one.
        if (!this.reached && !this.armed && (p.change.occurrence === 1 ? w.verb === 'create' && sameObject({ ...w, name: w.pointName, occurrence: 1 }, p.change) : w.change && sameChangePoint(w.change, { ...p.change, occurrence: p.change.occurrence - 1 }))) this.armCoalescing(w.name);
        // Only the held object's own changes count: under a generated name (`web-*`) the plan's
        // change is counted across every object of that name, and another one's change neither
        // reaches the hold nor delivers what it holds (a held deletion would wait for ever).
        if (this.heldName !== undefined && w.name !== this.heldName) return;
        // The next change, or the object made again under its name after its deletion.
        if (this.reached && sameObject(changeOrRemaking(w), p.change)) this.delivered = true;
        if (!this.reached && w.change && (sameChangePoint(w.change, p.change) || (this.armed && p.change.name.endsWith('*')))) {
          this.reached = true;
          if (this.heldForOwnFinalizer(p.change)) this.deliverHeld('the held change delivered at once: the object waits, terminating, on finalizers only the controller removes');
        }
        return;
      case 'relist-across-changes':
        if (!this.reached && w.change && sameChangePoint(w.change, p.change)) {
          this.reach(describePlan(p));
          this.heldName = w.name;
          this.fault('withhold-events', { user: this.hooks.controllerUser });
          this.changesLeft = p.changes;
          // No change can come but the controller's own answer to one it is not shown.
          if (this.heldForOwnFinalizer(p.change)) {
            this.changesLeft = 0;
            this.relist();
          }
          return;
        }
        // The changes it is withheld across are the object's own, by others (the controller cannot answer what it has not seen).
        if (this.reached && this.changesLeft > 0 && !w.byController && sameObject(changeOrRemaking(w), p.change)) {
          if (--this.changesLeft === 0) this.relist();
        }
        return;
      case 'crash-after-change':
        // Inside the change's commit: killed before its watch event can reach the controller.
        if (this.reached || !w.change || !sameChangePoint(w.change, p.change)) return;
        this.reach(describePlan(p));
        this.restart();
        return;
      case 'stale-restart-after-change':
        if (this.reached || !w.change || !sameChangePoint(w.change, p.change)) return;
        this.reach(describePlan(p));
        this.restartStale(w, p.lagMs);
        return;
      case 'resync-when-quiet':
        return;
    }
  }

  /**
   * Kills the controller and starts it again. The killed process's Leases are let go once the
   * write or change being committed is done (not inside its commit): a leader-elected manager
   * restarted leads at once, as it would once its lease expired.
   */
  private restart(options: { beforeStart?: () => void; afterSync?: () => void } = {}): void {
    this.hooks.restart({
      ...options,
      beforeStart: () => {
        options.beforeStart?.();
        queueMicrotask(() => releaseLeases(this.cluster(), this.hooks.writes.all, this.hooks.controllerUser));
      },
    });
  }

  /**
   * Kills the controller and starts it again against the cluster as it was before `w` (its write,
   * or someone else's change) committed, or as of `asOf`, however long it takes to start, and for
   * at most lagMs once it has synced.
   */
  private restartStale(w: CommittedWrite, lagMs: number, asOf?: number): void {
    const before = asOf ?? Number(w.resourceVersion) - 1;
    this.restart({
      beforeStart: () => this.fault('stale-view', { user: this.hooks.controllerUser, resourceVersion: before, forMs: STALE_VIEW_HOLD_MS }),
      afterSync: () => this.later(lagMs, () => this.endLag()),
    });
  }

  /** The stale cache or view catches up: what was withheld is delivered, in order. */
  private endLag(): void {
    if (this.lagEnded) return;
    this.lagEnded = true;
    try {
      if (this.plan.kind === 'stale-after-write') this.fault('release-events', { user: this.hooks.controllerUser });
      else {
        // Caught up by a relist, not by the events in between: its reconciles would race them, and
        // a state in between seen or not (an object made again, before its finalizer) would make
        // the run end one way or the other from one replay to the next. Its watches end while the
        // view still lags, and it lists anew only once the view is the cluster's.
        this.fault('expire-watches', { user: this.hooks.controllerUser, discardWithheld: true });
        this.fault('stale-view', { user: this.hooks.controllerUser, resourceVersion: 'now', forMs: 0 });
      }
    } catch (err) {
      this.error ??= (err as Error).message;
    }
    this.hooks.released?.();
  }

  /**
   * The controller's watches expire, dropping what they held, and the hold ends: the watches its
   * informers open after relisting get every event again.
   */
  private relist(): void {
    this.fault('expire-watches', { user: this.hooks.controllerUser, discardWithheld: true });
    this.fault('release-events', { user: this.hooks.controllerUser });
    this.hooks.released?.();
  }

  /** Holds the next event of the object (by its name in this run: a generated one differs from the plan's). */
  private armCoalescing(name: string): void {
    if (this.plan.kind !== 'coalesce-change') return;
    this.armed = true;
    this.heldName = name;
    const { change } = this.plan;
    const resource = this.resourceOf(change.kind);
    this.note(describePlan(this.plan));
    this.fault('coalesce-events', { user: this.hooks.controllerUser, resource, namespace: change.namespace, name, count: 1 });
  }

  private deliverHeld(why: string): void {
    this.delivered = true;
    this.note(why);
    this.cluster().faults.reset();
    this.hooks.released?.();
  }

  /**
   * The changed object is terminating and every finalizer left on it is one the controller put
   * there: nothing but the controller's answer to the deletion it has not been shown can change it.
   */
  private heldForOwnFinalizer(change: ChangePoint): boolean {
    const held = this.heldName ?? change.name;
    const info = this.infoOf(change.kind);
    if (!info || held.endsWith('*')) return false;
    let object: KubeObject;
    try {
      object = this.cluster().get(info, change.namespace, held).object;
    } catch {
      return false;
    }
    const finalizers = object.metadata.finalizers ?? [];
    if (!object.metadata.deletionTimestamp || finalizers.length === 0) return false;
    const own = (f: string) =>
      this.hooks.writes.all.some((w) => w.byController && w.kind === change.kind && w.namespace === change.namespace && w.name === held && w.object.metadata.finalizers?.includes(f) && !w.previous?.metadata.finalizers?.includes(f));
    return finalizers.every(own);
  }

  /** Whether the object a change names is in the cluster now (a generated name is not known before its creation). */
  private exists(change: ChangePoint): boolean {
    if (change.name.endsWith('*')) return false;
    const info = this.infoOf(change.kind);
    if (!info) return false;
    try {
      this.cluster().get(info, change.namespace, change.name);
      return true;
    } catch {
      return false;
    }
  }

  /** `apps/Deployment`: the resource it is stored as. */
  private infoOf(groupKind: string): ReturnType<SimClusterApi['resources']['all']>[number] | undefined {
    const [group, kind] = groupKind.includes('/') ? (groupKind.split('/') as [string, string]) : ['', groupKind];
    return this.hooks.sim.cluster.resources.all().find((i) => i.kind === kind && i.group === group && i.version === i.storageVersion);
  }

  /** `apps/Deployment` → `deployments.apps`, as the fault table names resources. */
  private resourceOf(kind: string): string {
    const [group, name] = kind.includes('/') ? (kind.split('/') as [string, string]) : ['', kind];
    for (const info of this.hooks.sim.cluster.resources.all()) {
      if (info.kind === name && info.group === group) return group ? `${info.resource}.${group}` : info.resource;
    }
    return name.toLowerCase();
  }

  private reach(what: string): void {
    this.reached = true;
    this.note(what);
  }

  private note(what: string): void {
    this.applied.push({ what, resourceVersion: String(this.cluster().resourceVersion), atMs: performance.now() - this.started });
    this.hooks.touch();
  }

  private fault(name: string, args: Record<string, unknown>): void {
    const fault = faultNamed(name);
    if (!fault) throw new Error(`the simulated cluster has no fault named ${name}`);
    fault.apply(this.cluster(), faultArgsFrom(fault, args));
    this.applied.push({ what: `${name} ${JSON.stringify(args)}`, resourceVersion: String(this.cluster().resourceVersion), atMs: performance.now() - this.started });
    this.hooks.touch();
  }

  private later(ms: number, fn: () => void): void {
    if (this.hooks.clock) {
      this.timers.push(this.hooks.clock.setTimer(ms, fn));
      return;
    }
    const t = setTimeout(fn, ms);
    this.timers.push({ cancel: () => clearTimeout(t) });
  }

  private cluster(): SimClusterApi {
    return this.hooks.sim.cluster;
  }
}

/** The object a write changed, or made (again, after a deletion: the next state of its name). */
function changeOrRemaking(w: CommittedWrite): ChangePoint | undefined {
  return w.change ?? (w.verb === 'create' ? { kind: w.kind, namespace: w.namespace, name: w.pointName, occurrence: 0 } : undefined);
}

function sameObject(a: ChangePoint | undefined, b: ChangePoint): boolean {
  return !!a && a.kind === b.kind && a.namespace === b.namespace && a.name === b.name;
}
