import { parsePlan, PlanReplay, type Plan } from '../check/index.ts';
import type { ControllerSession, LaunchedSim, ReconcileRecord } from '../runtime/index.ts';
import type { Clock } from '../shared/clock.ts';

// A check finding replayed in the debugger (`"checkPlan"` in the launch configuration): the
// controller runs as check runs it, as its own user on the session's own simulated cluster, and the
// finding's perturbation is applied at its point by check's own PlanReplay — the controller killed
// and started again inside the session, its watch events withheld, every key resynced. The runtime
// runs without stopping until the point came, then stops at the first reconcile after it of a key
// the perturbation concerns (the one whose reconcile made the write, or the changed object): where
// the finding's run went its own way.

export interface FindingReplayEvents {
  /** The point came: the perturbation is applied now (the runtime stops at the next reconcile). */
  reached(point: { what: string; resourceVersion: string }): void;
  print(text: string): void;
  /** The session's scenario clock: the plan's windows stand still while the debugger is stopped. */
  clock: Clock;
}

export class FindingReplay {
  /** The stop's description: what was done to the run. */
  readonly description: string;
  private readonly replay: PlanReplay;
  private readonly events: FindingReplayEvents;
  private session: ControllerSession | undefined;
  private told = false;
  private readonly plan: Plan;
  /** The request keys the perturbation concerns (a trailing `*`: a generated name); empty: any. */
  private keys: string[] = [];

  /** `checkPlan`: a finding's plan as `--plan` takes it (its JSON object, or that JSON as text). */
  static plan(checkPlan: unknown): Plan {
    return parsePlan(typeof checkPlan === 'string' ? checkPlan : JSON.stringify(checkPlan));
  }

  /** Before the controller starts: the plan binds the controller's user on `sim`. */
  constructor(plan: Plan, sim: LaunchedSim, events: FindingReplayEvents, options: { as?: string | undefined } = {}) {
    this.events = events;
    this.plan = plan;
    this.replay = new PlanReplay(
      plan,
      sim,
      {
        restart: (o) => {
          if (!this.session?.restartProcess(o)) events.print('The replay could not restart the controller: its process is not running.\n');
        },
        resync: () => this.session?.resync(),
        reached: (point) => {
          this.keys = this.concernedKeys();
          this.session?.notePerturbation(point.what, point.resourceVersion);
          events.reached(point);
        },
        clock: events.clock,
      },
      options.as ? { as: options.as } : {},
    );
    this.description = `Replaying a check finding: ${this.replay.perturbation}`;
  }

  /** The user the controller must run as. */
  get user(): string {
    return this.replay.user;
  }

  get reached(): boolean {
    return this.replay.reached;
  }

  /** `default/web`, or `any key` when the perturbation concerns no one key. */
  get target(): string {
    return this.keys.length ? this.keys.join(', ') : 'any key';
  }

  /** A reconcile the replay stops at, once the point came: one of a key the perturbation concerns. */
  concerns(record: ReconcileRecord): boolean {
    return this.keys.length === 0 || this.keys.some((k) => (k.endsWith('*') ? record.key.startsWith(k.slice(0, -1)) : record.key === k));
  }

  /**
   * Whose reconcile diverges: for a write, the keys being reconciled when it committed (the writer);
   * for a change of an object the controller reconciles, that object; otherwise any key.
   */
  private concernedKeys(): string[] {
    if ('write' in this.plan) return [...new Set(this.session?.inFlight().map((r) => r.key) ?? [])];
    if (!('change' in this.plan)) return [];
    const { kind, namespace, name } = this.plan.change;
    const reconciled = this.session?.controllers.some((c) => c.forKind.kind === kind.slice(kind.indexOf('/') + 1)) ?? false;
    return reconciled ? [namespace ? `${namespace}/${name}` : name] : [];
  }

  /** The session it restarts and resyncs. */
  follow(session: ControllerSession): void {
    this.session = session;
  }

  /**
   * The controller went idle with the scenario done: a plan that acts on a quiet controller does
   * so now; a point that never came is said once (the controller or the scenario changed since).
   */
  quiet(): void {
    if (this.replay.onQuiet() || this.replay.reached || this.told) return;
    this.told = true;
    this.events.print(`The finding's point did not come in this run (${this.replay.perturbation}): the controller or the scenario may have changed since the check.\n`);
  }

  /** A step of the plan that could not be done. */
  get error(): string | undefined {
    return this.replay.error;
  }

  dispose(): void {
    this.replay.dispose();
  }
}
