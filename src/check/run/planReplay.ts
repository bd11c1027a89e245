import type { LaunchedSim } from '../../runtime/index.ts';
import type { Clock } from '../../shared/clock.ts';
import { describePlan, type Plan } from '../plans/plan.ts';
import { admitCheckedUser, CHECKED_USER } from './controllerUnderCheck.ts';
import { ControllerWrites, namerForPlan } from './controllerWrites.ts';
import { Perturbation } from './perturbation.ts';

// A finding's run replayed where something else runs the controller (the reconcile debugger): on
// that run's simulated cluster, with the controller as check's user, the plan's perturbation
// applied at its point exactly as check applies it. The caller starts the controller as `user`,
// restarts and resyncs it when asked, hears when the point came, and says when it is quiet.

export interface PlanReplayHooks {
  /** Kills the controller (as kill -9) and starts it again against the same cluster; `beforeStart` runs between, `afterSync` once the new one synced. */
  restart(options?: { beforeStart?: () => void; afterSync?: () => void }): void;
  /** Every key of the controller reconciled again. */
  resync(): void;
  /** The plan's point came: its perturbation is applied now, at the cluster's `resourceVersion`. */
  reached(point: { what: string; resourceVersion: string }): void;
  /** What the plan's windows (a lag, a withholding) are timed by: one that stands still while the caller is stopped. */
  clock?: Clock;
}

export class PlanReplay {
  /** Who the controller must run as: its requests and watches are the ones perturbed. */
  readonly user: string;
  /** What is done to the run, in words (as the finding says it). */
  readonly perturbation: string;
  private readonly writes: ControllerWrites;
  private readonly applying: Perturbation;
  private announced = false;

  /** Binds the controller's user on `sim` (unless `as` names one of its own): before the controller starts. */
  constructor(plan: Plan, sim: LaunchedSim, hooks: PlanReplayHooks, options: { as?: string } = {}) {
    this.user = options.as ?? CHECKED_USER;
    this.perturbation = describePlan(plan);
    if (!options.as) admitCheckedUser(sim.cluster);
    this.writes = new ControllerWrites(sim.cluster, this.user, namerForPlan(plan));
    const announce = () => {
      // Called from inside the Perturbation's constructor too, before `applying` is set.
      if (this.announced || !this.applying?.reached) return;
      this.announced = true;
      hooks.reached({ what: this.perturbation, resourceVersion: String(sim.cluster.resourceVersion) });
    };
    this.applying = new Perturbation(plan, {
      sim,
      writes: this.writes,
      controllerUser: this.user,
      restart: (o) => hooks.restart(o),
      resync: () => hooks.resync(),
      touch: announce,
      ...(hooks.clock ? { clock: hooks.clock } : {}),
    });
  }

  /** The plan's point came in this run. */
  get reached(): boolean {
    return this.applying.reached;
  }

  /** A step of the plan that could not be done. */
  get error(): string | undefined {
    return this.applying.error;
  }

  /**
   * The controller is quiet: a plan that acts then (a resync once quiet, a relist whose changes
   * never came) does so now. True when it did something.
   */
  onQuiet(): boolean {
    return this.applying.onQuiet();
  }

  dispose(): void {
    this.applying.dispose();
    this.writes.close();
  }
}
