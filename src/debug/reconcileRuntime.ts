import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { BreakpointSet, idCounter, type BreakpointSpec, type ReconcileBreakpoint } from './breakpoints.ts';
import type { DataBreakpoint, DataBreakpointOrigin, DataBreakpointSpec } from './data/dataBreakpoints.ts';
import type { AttributedChange } from './data/dataWatch.ts';
import { DataStops, type DataStop } from './data/dataStops.ts';
import type { HeldWrite } from './data/heldWrites.ts';
import type { CacheView, CallSite, ControllerSession, ControllerSessionOptions, ControllerShape, QueueSnapshot, ReconcileRecord, WhyAnswer, WhyTarget } from '../runtime/index.ts';
import { buildProgress, DEFAULT_RECONCILE_TIMEOUT_MS, InformerErrors, notStartedHint, reportRbacHints, type GateDecision, type GoProgramOptions, TypedEmitter, describeStaleRead, describeTrigger } from '../runtime/index.ts';
import type { ClusterChoice, ClusterFactory, DebugCluster } from './debugCluster.ts';
import { PausableClock } from '../shared/clock.ts';
import { JsDebuggerAttach } from './jsDebuggerAttach.ts';
import { goProgramOptions, reconcileSource, type GoLaunchOptions } from './goLaunch.ts';
import { FindingReplay } from './findingReplay.ts';
import { stderrRuns } from './stderrLines.ts';
import { buildErrorLocations } from './buildErrorLocations.ts';

/**
 * How long a TypeScript controller may take to load before the Debug Console says it has not
 * started: one whose top-level code awaits what never settles neither fails nor starts.
 */
const NOT_STARTED_NOTICE_MS = 15_000;

// The reconcile debugger's engine, with no DAP and no VS Code in it (vscode-mock-debug's runtime
// layer). It owns the gate: every reconcile asks it before running, and it decides to let it run
// or to stop there (entry, breakpoint, step, pause). It also walks the recorded history for
// stepBack/reverseContinue, where the cache is read as it was when that reconcile started.
// What it runs on is injected (productionRuntime.ts wires the real processes and clusters).

export interface RuntimeFactories {
  /** The controller's session: it starts the process that runs the controller (TypeScript host or Go program). */
  startSession: (options: ControllerSessionOptions) => ControllerSession;
  /** The cluster it runs against (a simulated cluster, or a kubeconfig's). */
  startCluster: ClusterFactory;
}

export interface DebugLaunchOptions extends GoLaunchOptions {
  /** A TypeScript/JavaScript controller file (or a Go program: see `program`). */
  controller?: string;
  cluster: ClusterChoice;
  /** Run the controller as this user (impersonation, as kubectl --as): see ControllerSessionOptions.runAs. */
  runAs?: string;
  scenario?: string;
  /** Runs the sim's workload controllers and fake Nodes (see LaunchSimOptions). */
  workloads?: unknown;
  stopOnEntry?: boolean;
  workers?: number;
  attachJsDebugger?: boolean;
  /** How long the controller process waits for the JavaScript debugger before it runs on without it. */
  attachTimeoutMs?: number;
  reconcileTimeoutMs?: number;
  /** The TypeScript controller's heap limit in MB (0: Node's own). Default 2048. */
  maxHeapMb?: number;
  cwd?: string;
  /**
   * A check finding's plan (as `controller-lab check --plan` takes it): the run is replayed as check
   * made it, on a simulated cluster of the session's own, without stopping until the perturbation
   * is applied; then it stops at the first reconcile after it of the key it concerns (FindingReplay).
   */
  checkPlan?: unknown;
}

/**
 * `perturbation`: the first reconcile after a replayed finding's perturbation. `data breakpoint`:
 * a watched field changed (the reconcile that wrote it, or the first one an outside change triggered).
 */
export type StopReason = 'entry' | 'breakpoint' | 'step' | 'pause' | 'exception' | 'perturbation' | 'data breakpoint';

export interface StopState {
  reason: StopReason;
  record: ReconcileRecord;
  /** The reconcile is held at the gate (it has not run). False: a recorded, finished reconcile. */
  live: boolean;
  breakpointId?: number;
  description?: string;
  /** Where the stop points in the code instead of Reconcile: the client call whose write changed a watched field. */
  location?: CallSite;
  /** That write waits in its client call until the session leaves this stop (a Go program under a line debugger). */
  heldWrite?: HeldWrite;
}

export type DebugRuntimeEvents = {
  stopped: StopState;
  continued: Record<string, never>;
  output: { category: 'console' | 'stdout' | 'stderr' | 'important'; text: string };
  inspector: { port: number; url: string };
  /** The controller host ended (or never started); the session is over. */
  ended: { exitCode: number };
  /** A reconcile breakpoint found unusable once the controllers' kinds were known. */
  breakpointChanged: ReconcileBreakpoint;
};

interface Held {
  record: ReconcileRecord;
  release: (decision: GateDecision) => void;
}

/** A launch failure the Debug Console has already been told (a failed build prints its errors as it fails). */
export class PrintedError extends Error {
  override name = 'PrintedError';
}

export class ReconcileRuntime extends TypedEmitter<DebugRuntimeEvents> {
  private readonly breakpointIds = idCounter();
  readonly breakpoints = new BreakpointSet(this.breakpointIds);
  private readonly dataStops = new DataStops(this.breakpointIds, {
    busy: () => this.replayStop !== 'done',
    held: () => this.held.map((h) => h.record),
    // A reconcile that got past the gate before a stop can still write while stopped: its change
    // is shown once the user goes on, not lost.
    stopAt: (stop) => (this.stop ? this.deferredData.push(stop) : this.stopOnData(stop)),
    print: (text) => this.print('stderr', text),
  });
  private readonly factories: RuntimeFactories;
  private session: ControllerSession | undefined;
  private cluster: DebugCluster | undefined;
  private readonly held: Held[] = [];
  private stop: StopState | undefined;
  /** The live stop that history browsing started from (stepBack keeps it held). */
  private liveStop: StopState | undefined;
  /** Data breakpoint stops found while stopped, shown in turn as the user goes on. */
  private readonly deferredData: DataStop[] = [];
  private entryPending = false;
  private stepping = false;
  private pauseRequested = false;
  private stopOnErrors = true;
  private readonly queueAtStart = new Map<number, QueueSnapshot>();
  private controllerFile = '';
  private reconcileLine = 0;
  private ended = false;
  /** The session's scenario runs on it: time stands still while the debugger is stopped. */
  readonly scenarioClock = new PausableClock();
  private jsAttach: JsDebuggerAttach | undefined;
  private replay: FindingReplay | undefined;
  /** A replay runs unstopped until its perturbation, stops at the next reconcile, then runs as any session. */
  private replayStop: 'before' | 'next' | 'done' = 'done';

  constructor(factories: RuntimeFactories) {
    super();
    this.factories = factories;
  }

  get current(): StopState | undefined {
    return this.stop;
  }
  get workers(): number {
    return this.threads().length;
  }
  /**
   * Workers are threads: `worker N` for one controller; a Go manager's several controllers each
   * get their own run of threads (`configs worker 1`, `secrets worker 1`).
   */
  threads(): { id: number; name: string }[] {
    const shapes = this.session?.controllers ?? [];
    if (shapes.length <= 1) return Array.from({ length: shapes[0]?.workers ?? 1 }, (_, i) => ({ id: i + 1, name: `worker ${i + 1}` }));
    let id = 0;
    return shapes.flatMap((c) => Array.from({ length: Math.max(1, c.workers) }, (_, i) => ({ id: ++id, name: `${c.name} worker ${i + 1}` })));
  }
  /** The thread a reconcile runs on (see threads). */
  threadOf(record: ReconcileRecord): number {
    const shapes = this.session?.controllers ?? [];
    if (shapes.length <= 1) return record.worker;
    let offset = 0;
    for (const c of shapes) {
      if (c.name === record.controller) return offset + record.worker;
      offset += Math.max(1, c.workers);
    }
    return record.worker;
  }
  /** The shape a controller reported (a Go controller's names its Reconcile function). */
  controllerShape(name: string): ControllerShape | undefined {
    return this.session?.controllers.find((c) => c.name === name);
  }
  /** Whether each controller reconciled an object's recent changes, and why (not); undefined before launch. */
  why(target: WhyTarget): WhyAnswer | undefined {
    return this.session?.why(target);
  }
  /** The kind the first controller reconciles (a `why` without a kind means it). */
  get forKind(): string | undefined {
    return this.session?.controllers[0]?.forKind.kind;
  }
  /** The program runs in Go (known once launched). */
  get isGo(): boolean {
    return this.session?.target.language === 'go';
  }
  get controllerName(): string {
    return this.session?.controller?.name ?? 'controller';
  }
  get pid(): number | undefined {
    return this.session?.pid;
  }
  get source(): { path: string; line: number } {
    return { path: this.controllerFile, line: this.reconcileLine };
  }

  /** `go`: overrides for how a Go program is built and started (a line debugger's build flags and `dlv exec`). */
  async launch(options: DebugLaunchOptions, go: Partial<GoProgramOptions> = {}): Promise<void> {
    const spec = options.program ?? options.controller;
    if (!spec) throw new Error('set "controller" (a TypeScript controller file) or "program" (a Go main package) in the launch configuration');
    const cwd = options.cwd ?? process.cwd();
    this.controllerFile = resolve(cwd, spec);
    const source = reconcileSource(spec, cwd);
    if (source) ({ path: this.controllerFile, line: this.reconcileLine } = source);
    else this.reconcileLine = findReconcileLine(this.controllerFile);
    const plan = options.checkPlan === undefined ? undefined : FindingReplay.plan(options.checkPlan);
    this.entryPending = options.stopOnEntry === true && !plan;
    this.jsAttach = new JsDebuggerAttach({ timeoutMs: options.attachTimeoutMs, print: (category, text) => this.print(category, text) });
    this.cluster = await this.factories.startCluster({
      cluster: options.cluster,
      scenario: options.scenario && resolve(cwd, options.scenario),
      workloads: options.workloads,
      scenarioClock: this.scenarioClock,
      print: (text) => this.print('console', text),
    });
    if (plan) {
      const sim = this.cluster.sim;
      if (!sim) {
        await this.cluster.stop();
        throw new Error('"checkPlan" replays a check finding on a simulated cluster of the session\'s own: set "cluster": "sim"');
      }
      this.replay = new FindingReplay(plan, sim, { reached: (point) => this.replayReached(point), print: (text) => this.print('stderr', text), clock: this.scenarioClock }, { as: options.runAs });
      this.replayStop = 'before';
      this.print('console', `${this.replay.description}: the controller runs as ${this.replay.user} without stopping until then\n`);
    }
    const { kubeconfig, context } = this.cluster;
    const session = this.factories.startSession({
      file: options.program ?? this.controllerFile,
      // On a simulated cluster of the session's own, a Go program's webhooks are served and installed (goWebhooks.ts).
      go: { ...goProgramOptions(options), ...go, env: { ...options.env, ...go.env }, localWebhooks: this.cluster.sim !== undefined },
      kubeconfig,
      context,
      runAs: options.runAs ?? this.replay?.user,
      workers: options.workers,
      // Paused on a line breakpoint, a reconcile may take as long as the user likes.
      reconcileTimeoutMs: options.attachJsDebugger ? 0 : (options.reconcileTimeoutMs ?? DEFAULT_RECONCILE_TIMEOUT_MS),
      inspectBrk: options.attachJsDebugger === true,
      maxHeapMb: options.maxHeapMb,
      cwd: options.cwd,
      gate: (record) => this.gate(record),
    });
    this.session = session;
    this.replay?.follow(session);
    this.dataStops.follow(session);
    this.wire(session);
    const target = session.target;
    // Delve's flags change every package's build: the first such build of a project takes as long as a cold one.
    const forDelve = go.buildFlags?.some((f) => f.startsWith('-gcflags=all=-N')) === true;
    if (target.language === 'go') {
      const how = forDelve ? ', with Delve\'s -gcflags=all=-N -l: the first such build compiles every package again and can take minutes; later ones come from Go\'s build cache' : '';
      this.print('console', `Building ${target.display} (go build in ${target.moduleDir}${how})…\n`);
    }
    // Minutes of a cold build with no line read as a hang: a line every 20 s until it runs.
    const built = target.language === 'go' ? buildProgress((line) => this.print('console', `${line}\n`), { delve: forDelve }) : undefined;
    let fatal: string | undefined;
    const sub = session.once('fatal', (f) => (fatal = f.message));
    const started = await session.start();
    built?.(started);
    sub.dispose();
    if (!started) {
      await this.shutdown();
      throw fatal === undefined ? new Error('the controller could not be started') : new PrintedError(fatal);
    }
  }

  setBreakpoints(specs: BreakpointSpec[]): ReconcileBreakpoint[] {
    const set = this.breakpoints.set(specs);
    if (this.synced) queueMicrotask(() => this.noteAbsentObjects());
    return set;
  }

  /** The caches have synced: what they do not hold is known. */
  private synced = false;

  /** Tells the editor of each breakpoint on an object the caches do not hold. */
  private noteAbsentObjects(): void {
    const cache = this.cacheView();
    if (!cache) return;
    const kinds = this.session?.controllers.map((c) => c.forKind.kind) ?? [];
    for (const bp of this.breakpoints.noteAbsent(cache, kinds)) this.emit('breakpointChanged', bp);
  }

  setDataBreakpoints(origin: DataBreakpointOrigin, specs: DataBreakpointSpec[]): DataBreakpoint[] {
    return this.dataStops.set(origin, specs);
  }

  /** The watched field changes a reconcile made (its writes) or was triggered by. */
  dataChangesOf(record: ReconcileRecord): AttributedChange[] {
    return this.dataStops.changesOf(record);
  }

  setExceptionFilters(filters: string[]): void {
    this.stopOnErrors = filters.includes('reconcileErrors');
  }

  /** The cache as the stopped reconcile saw it (or the live cache when not stopped). */
  cacheView(record?: ReconcileRecord): CacheView | undefined {
    return this.session?.cache.at(record ? record.cacheSeq : undefined);
  }

  /** The queue of the record's controller: now for a held reconcile, else as it was when it started. */
  queueFor(record: ReconcileRecord): QueueSnapshot | undefined {
    const now = this.session?.queueOf(record.controller);
    if (this.stop?.live && this.stop.record === record) return now;
    return this.queueAtStart.get(record.seq) ?? now;
  }

  recordBySeq(seq: number): ReconcileRecord | undefined {
    return this.session?.recorder.bySeq(seq);
  }

  /** Reconciles that started and have not ended. */
  inFlight(): ReconcileRecord[] {
    return this.session?.inFlight() ?? [];
  }

  /** Reconciles waiting at the gate, per worker (their stack frames). */
  heldFor(thread: number): ReconcileRecord[] {
    return this.held.filter((h) => this.threadOf(h.record) === thread).map((h) => h.record);
  }

  // ── execution control ────────────────────────────────────────────────────────────────────────

  continue(): void {
    this.stepping = false;
    this.resume();
  }

  /** Runs the current reconcile and stops at the next one. In history: one recorded reconcile forward. */
  next(): void {
    if (this.stop && !this.stop.live && this.liveStop) {
      const later = this.session?.recorder.next(this.stop.record.seq);
      if (later && later.seq < this.liveStop.record.seq) return this.show({ reason: 'step', record: later, live: false });
      return this.show(this.liveStop);
    }
    this.stepping = true;
    this.resume();
  }

  /** Runs the current reconcile under the JavaScript debugger, paused just before it is called. */
  stepIn(): void {
    if (this.stop && !this.stop.live) return this.next();
    this.stepping = true;
    this.resume({ stepIn: true });
  }

  /**
   * Runs the held reconcile into a line debugger that will stop inside it: other reconciles go
   * on as after Continue until stepAfterLineStop() (the line debugger stopped), so no reconcile
   * stop of another worker comes first.
   */
  stepIntoLineDebugger(): void {
    if (this.stop && !this.stop.live) return this.next();
    this.stepping = false;
    this.resume({ stepIn: true });
  }

  /** The line debugger stopped in the stepped-into reconcile: the next reconcile stops, as after a step. */
  stepAfterLineStop(): void {
    if (!this.stop) this.stepping = true;
  }

  stepBack(): void {
    const from = this.stop?.record;
    if (!from) return;
    const earlier = this.session?.recorder.previous(from.seq);
    if (!earlier) return this.show({ ...this.stop!, reason: 'step' });
    if (this.stop?.live || this.stop?.heldWrite) this.liveStop = this.stop;
    this.show({ reason: 'step', record: earlier, live: false });
  }

  /** Back to the most recent earlier reconcile a breakpoint matches, or the oldest one recorded. */
  reverseContinue(): void {
    const from = this.stop?.record;
    if (!from) return;
    if (this.stop?.live || this.stop?.heldWrite) this.liveStop = this.stop;
    let r = this.session?.recorder.previous(from.seq);
    let last = r;
    while (r) {
      const data = this.dataStops.recorded(r);
      if (data) return this.stopOnData(data);
      const verdict = this.breakpoints.recall({ kind: r.forKind.kind, key: r.key, request: r.request, object: r.object, trigger: r.trigger, seq: r.seq });
      if (verdict.action === 'stop') return this.show({ reason: 'breakpoint', record: r, live: false, breakpointId: verdict.breakpoint.id });
      last = r;
      r = this.session?.recorder.previous(r.seq);
    }
    this.show({ reason: 'step', record: last ?? from, live: last ? false : (this.stop?.live ?? false) });
  }

  pause(): void {
    if (this.stop) return;
    const waiting = this.held.shift();
    if (waiting) {
      this.held.unshift(waiting);
      return this.show({ reason: 'pause', record: waiting.record, live: true });
    }
    this.pauseRequested = true;
    // Nothing is arriving (idle): stop on the latest recorded reconcile, holding any that come.
    const latest = this.session?.recorder.latest();
    if (latest) {
      this.pauseRequested = false;
      this.show({ reason: 'pause', record: latest, live: false });
    }
  }

  /** The editor could not start the JavaScript debugger (see jsDebuggerAttach.ts). */
  jsDebuggerUnavailable(reason: string): void {
    this.jsAttach?.unavailable(reason);
  }

  async shutdown(): Promise<void> {
    for (const d of this.deferredData.splice(0)) d.heldWrite?.release();
    this.dataStops.dispose();
    this.jsAttach?.dispose();
    this.replay?.dispose();
    if (this.ended) return;
    this.ended = true;
    for (const h of this.held.splice(0)) h.release({});
    await this.session?.stop();
    await this.cluster?.stop();
  }

  // ── the gate ─────────────────────────────────────────────────────────────────────────────────

  private gate(record: ReconcileRecord): Promise<GateDecision> {
    return new Promise<GateDecision>((release) => {
      this.held.push({ record, release });
      if (!this.stop) this.dispatch();
    });
  }

  /** Lets held reconciles through, in order, until one has to stop. */
  private dispatch(): void {
    while (!this.stop && this.held.length > 0) {
      const h = this.held[0] as Held;
      const reason = this.stopReasonFor(h.record);
      if (reason) {
        this.show({ ...reason, record: h.record, live: true });
        return;
      }
      this.held.shift();
      h.release({});
    }
  }

  private stopReasonFor(record: ReconcileRecord): Pick<StopState, 'reason' | 'breakpointId' | 'description'> | undefined {
    // Claimed whatever else stops here, so the reconcile shows the outside change it was triggered by.
    const data = this.dataStops.atGate(record);
    if (this.replayStop === 'before') return undefined;
    if (this.replayStop === 'next' && this.replay) {
      if (!this.replay.concerns(record)) return undefined;
      this.replayStop = 'done';
      return { reason: 'perturbation', description: this.replay.description };
    }
    if (this.entryPending) {
      this.entryPending = false;
      return { reason: 'entry' };
    }
    if (data) {
      this.stepping = false;
      return { reason: 'data breakpoint', breakpointId: data.breakpointId, description: data.description };
    }
    if (this.stepping) {
      this.stepping = false;
      return { reason: 'step' };
    }
    if (this.pauseRequested) {
      this.pauseRequested = false;
      return { reason: 'pause' };
    }
    const verdict = this.breakpoints.evaluate(
      { kind: record.forKind.kind, key: record.key, request: record.request, object: record.object, trigger: record.trigger, seq: record.seq },
      (_bp, message) => this.print('console', `${message}\n`),
    );
    if (verdict.action === 'stop') return { reason: 'breakpoint', breakpointId: verdict.breakpoint.id };
    return undefined;
  }

  private show(state: StopState): void {
    this.scenarioClock.pause();
    this.stop = state;
    if (state.live || state.heldWrite) this.liveStop = undefined;
    this.emit('stopped', state);
  }

  /** Leaves the current stop: a held reconcile runs; from history, the live one does. */
  private resume(decision: GateDecision = {}): void {
    const stop = this.liveStop ?? this.stop;
    this.stop = undefined;
    this.liveStop = undefined;
    stop?.heldWrite?.release();
    if (stop?.live) {
      const i = this.held.findIndex((h) => h.record === stop.record);
      const [h] = i >= 0 ? this.held.splice(i, 1) : [];
      if (h) this.catchUp(h.record);
      h?.release(decision);
    }
    this.scenarioClock.resume();
    this.emit('continued', {});
    const deferred = this.deferredData.shift();
    if (deferred) return this.stopOnData({ ...deferred, live: deferred.live && this.held.some((h) => h.record === deferred.record) });
    this.dispatch();
  }

  /**
   * A held reconcile reads the cache as it is when let go, and its informer kept watching while
   * it was stopped (a `kubectl` write): its record follows, so its Object and cache are the ones
   * it read, and the Debug Console says what moved.
   */
  private catchUp(record: ReconcileRecord): void {
    const cache = this.session?.cache;
    if (!cache || cache.seq <= record.cacheSeq) return;
    const now = cache.at().get(record.forKind.kind, record.request.namespace, record.request.name);
    const was = record.object?.metadata.resourceVersion;
    if (now?.metadata.resourceVersion !== was) {
      const rv = (v: string | undefined) => (v === undefined ? 'not in the cache' : `rv ${v}`);
      this.print('console', `#${record.seq} ${record.forKind.kind} ${record.key} changed while stopped (${rv(was)} → ${rv(now?.metadata.resourceVersion)}): the reconcile reads the new one\n`);
      record.object = now;
    }
    record.cacheSeq = cache.seq;
  }

  /** A TypeScript controller not ready after NOT_STARTED_NOTICE_MS is named once, unless a JavaScript debugger holds it. */
  private noticeIfNeverReady(session: ControllerSession): void {
    if (session.target.language === 'go') return;
    let loaded = false;
    session.once('loaded', () => (loaded = true));
    const notice = setTimeout(() => {
      this.print('important', `The controller has not started after ${NOT_STARTED_NOTICE_MS / 1000} s: ${notStartedHint('typescript', loaded)}\n`);
    }, NOT_STARTED_NOTICE_MS);
    notice.unref();
    const cancel = () => clearTimeout(notice);
    for (const event of ['ready', 'fatal', 'exit', 'debuggerAttached'] as const) session.once(event, cancel);
  }

  private wire(session: ControllerSession): void {
    const processName = session.target.language === 'go' ? 'Go process' : 'host';
    let hinted = false;
    this.noticeIfNeverReady(session);
    session.on('ready', ({ controller }) => {
      // A TypeScript controller declares every kind it watches; a Go one may learn more as sources register.
      if (session.target.language !== 'go') {
        const kinds = [controller.forKind, ...controller.owns, ...controller.watches].map((k) => k.kind);
        for (const bp of this.breakpoints.learnController(controller.name, kinds)) this.emit('breakpointChanged', bp);
      }
      this.print('console', `Controller ${controller.name}: reconciles ${controller.forKind.kind}, ${controller.workers} worker(s) (${processName} pid ${session.pid})\n`);
      if (!hinted) this.print('console', `Type \`why NAMESPACE/NAME\` (or \`why KIND NAMESPACE/NAME\`) here: whether each controller reconciled that object's changes, and why not.\n`);
      hinted = true;
    });
    session.on('synced', () => {
      this.cluster?.startScenario?.();
      this.synced = true;
      this.noteAbsentObjects();
    });
    session.on('reconcileStart', ({ record }) => this.queueAtStart.set(record.seq, session.queueOf(record.controller)));
    session.on('reconcileEnd', ({ record }) => {
      for (const stale of record.staleReads ?? []) this.print('stderr', `#${record.seq} ${record.forKind.kind} ${record.key}: warning: ${describeStaleRead(stale)}\n`);
      const o = record.outcome;
      if (o?.kind !== 'error') return;
      const what = o.error.terminal ? 'terminal error (not retried)' : o.error.timedOut ? 'timed out (retried with backoff)' : 'error (retried with backoff)';
      this.print('stderr', `#${record.seq} ${record.forKind.kind} ${record.key}: ${what}: ${o.error.message}\n`);
      // Post-mortem stop on the failed reconcile: its Error and the key's backoff are visible. A
      // replay stops first where its run diverged (what fails on the way there is printed).
      if (this.stopOnErrors && !this.stop && this.replayStop === 'done') {
        this.stepping = false;
        this.show({ reason: 'exception', record, live: false, description: o.error.message });
      }
    });
    session.on('log', ({ line, record }) => {
      const where = record ? `[#${record.seq} ${record.key}] ` : '';
      const fields = line.fields ? ` ${JSON.stringify(line.fields)}` : '';
      this.print(line.level === 'error' ? 'stderr' : 'stdout', `${where}${line.message}${fields}\n`);
    });
    session.on('output', ({ stream, text }) => {
      if (stream !== 'stderr') return this.print(stream, text);
      for (const run of stderrRuns(text)) this.print(run.category, run.text);
    });
    const informerErrors = new InformerErrors();
    session.on('probe', ({ probe }) => {
      const line = informerErrors.lineFor(probe);
      if (line) this.print('stderr', `${line}\n`);
    });
    reportRbacHints(session, (hint) => this.print('stderr', `${hint}\n`));
    // A build error with lines to go to is raised by the editor with those lines (buildErrors.ts):
    // the console keeps it, without a second notification.
    session.on('fatal', ({ phase, message }) =>
      this.print(phase === 'compile' && buildErrorLocations(message).length > 0 ? 'stderr' : 'important', `Controller ${phase} failed: ${message}\n`),
    );
    session.on('restarted', ({ pid, interrupted }) => {
      this.print('console', `The controller's process was killed (SIGKILL) and started again (${processName} pid ${pid ?? '?'}).\n`);
      // Reconciles the old process held at the gate will never run.
      const gone = new Set(interrupted);
      for (let i = this.held.length - 1; i >= 0; i--) if (gone.has(this.held[i]!.record)) this.held.splice(i, 1);
      if (this.stop?.live && gone.has(this.stop.record)) this.stop = { ...this.stop, live: false };
    });
    session.on('idle', ({ idle }) => {
      if (idle && this.cluster?.sim?.scenarioFinished()) this.replay?.quiet();
    });
    // The host reports its inspector twice (over IPC and in Node's stderr banner): one attach only.
    let inspectorUrl: string | undefined;
    session.on('inspector', (i) => {
      if (i.url === inspectorUrl) return;
      inspectorUrl = i.url;
      this.jsAttach?.waiting(i.url);
      this.emit('inspector', i);
    });
    session.on('debuggerAttached', () => this.jsAttach?.attached());
    session.on('exit', ({ code, signal }) => {
      if (this.ended) return;
      const during = session.inFlight().map((r) => `#${r.seq} ${r.forKind.kind} ${r.key}`);
      this.print('important', `The controller process exited (${signal ?? `code ${code}`})${during.length ? ` during reconcile ${during.join(', ')}` : ''}.\n`);
      this.ended = true;
      this.jsAttach?.dispose();
      this.replay?.dispose();
      this.dataStops.dispose();
      void this.cluster?.stop();
      this.emit('ended', { exitCode: code ?? 1 });
    });
  }

  /** A watched field changed: stop on the reconcile it belongs to, pointing at the client call that changed it. */
  private stopOnData(data: DataStop): void {
    this.stepping = false;
    this.show({ reason: 'data breakpoint', record: data.record, live: data.live, breakpointId: data.breakpointId, description: data.description, location: data.change.write?.record.caller, heldWrite: data.heldWrite });
  }

  /** The replayed finding's perturbation is applied now: the next reconcile stops. */
  private replayReached(point: { what: string; resourceVersion: string }): void {
    this.replayStop = 'next';
    this.print('console', `${this.replay?.description ?? point.what} (at rv ${point.resourceVersion}): stopping at the next reconcile of ${this.replay?.target ?? 'any key'}.\n`);
  }

  private print(category: DebugRuntimeEvents['output']['category'], text: string): void {
    this.emit('output', { category, text });
  }
}

/** The title of a reconcile's stack frame: `reconcile Deployment default/web #17 · MODIFIED rv 4821`. */
export function frameName(record: ReconcileRecord): string {
  return `reconcile ${record.forKind.kind} ${record.key} #${record.seq} · ${describeTrigger(record)}`;
}

function findReconcileLine(file: string): number {
  try {
    const lines = readFileSync(file, 'utf8').split('\n');
    const i = lines.findIndex((l) => /\breconcile\s*[(:]/.test(l));
    return i >= 0 ? i + 1 : 1;
  } catch {
    return 1;
  }
}
