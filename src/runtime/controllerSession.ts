import type { Probe } from '../informer/index.ts';
import { TypedEmitter } from './typedEmitter.ts';
import { compileController, type CompiledController, type CompileOptions } from './compileController.ts';
import { ControllerProcess } from './controllerProcess.ts';
import { withLoopbackProbes } from './goProgramArgs.ts';
import { localWebhooksEnv } from './goWebhooks.ts';
import { GoControllerProcess, type GoCommandWrapper, type GoControllerOptions } from './goControllerProcess.ts';
import type { HostProcess, TypeScriptHost } from './hostProcess.ts';
import { controllerTarget, type ControllerTarget } from './controllerTarget.ts';
import { mergeQueues } from './queueMerge.ts';
import { kubeconfigFor } from './kubeconfigContext.ts';
import { goExitHint, OutputTail, WRAP_HINT } from './goMessages.ts';
import { decodeFateBatch, type CacheDelta, type ControllerShape, type EventFate, type HandledView, type HeldKey, type LogLine, type QueueSnapshot, type ReconcileRecord, type WriteRecord } from '../controllerProtocol/index.ts';
import { describeHostFailure, hostFailureBackoffMs, interruptedOutcome, type HostFailureCause, type InterruptedReconcile } from './hostFailure.ts';
import { ReconcileRecorder } from './recorder.ts';
import { CacheHistory } from './cacheHistory.ts';
import { createSessionRegistry } from './sessionRegistry.ts';
import { FateLog } from './fateLog.ts';
import { InformerRefusals } from './informerRefusals.ts';
import { whyNot, type WhyAnswer, type WhyTarget } from './whyNot.ts';

/** Every controller session running in this process (the views subscribe here). */
const { sessions: controllerSessions, register: registerSession, unregister: unregisterSession } = createSessionRegistry<ControllerSession>();
export { controllerSessions };

// One run of a user controller, as the CLI, the debugger and the extension's views see it: compile
// (TypeScript) or build (Go), spawn the process, and turn its messages into a typed stream of runtime
// events, while recording every reconcile and the cache history. The debugger adds a gate; the
// others let reconciles run freely. A Go manager may run several controllers: each says `ready`,
// each has its own queue, and every record names its controller.

/** How a Go controller-runtime program is built and started (ignored for a TypeScript controller). */
export interface GoProgramOptions {
  args?: string[];
  env?: NodeJS.ProcessEnv;
  buildFlags?: string[];
  /** Start the binary through another command (a line debugger: `dlv exec --headless …`). */
  wrapCommand?: GoCommandWrapper;
  /** How long the program has to connect (controllerlab.Wrap). Default 30 s. */
  connectTimeoutMs?: number;
  goBinary?: string;
  /** A program built already (buildGoProgram): started as it is, without `go build`. */
  binary?: string;
  /** Serve the program's webhooks on this machine and install its webhook configurations (goWebhooks.ts): a simulated cluster Controller Lab started. */
  localWebhooks?: boolean;
}

export interface ControllerSessionOptions {
  /**
   * The controller: a TypeScript/JavaScript file, or a Go program (a `.go` file, a directory with
   * `go.mod` or a `package main`, or a Go package path); see controllerTarget.
   */
  file: string;
  go?: GoProgramOptions;
  kubeconfig: string;
  context?: string;
  /**
   * Run the controller as this user (impersonation, as kubectl --as), e.g. its ServiceAccount
   * `system:serviceaccount:NS:NAME`: the cluster then allows it only what that user's RBAC grants.
   */
  runAs?: string;
  workers?: number;
  /** Default 30 s; 0 disables (used while a line debugger is attached). */
  reconcileTimeoutMs?: number;
  /** The TypeScript controller host's heap limit in MB (0: V8's own); past it, the host is reported out of memory. Default 2048. */
  maxHeapMb?: number;
  /** Decides when a reconcile may run; when absent every reconcile runs at once. */
  gate?: (record: ReconcileRecord) => Promise<GateDecision | void>;
  inspectBrk?: boolean;
  cwd?: string;
  /** Records kept for stepping back. Default 5000. */
  history?: number;
  /** Forward every cached object to this process (cache history for stepBack/evaluate). Default true. */
  mirrorCache?: boolean;
  /** Seeds a TypeScript controller's informer jitter (HostInit.jitterSeed); Go's client-go draws its own. */
  jitterSeed?: number;
  /** Default: esbuild when installed, else the user's files load through type stripping. */
  bundler?: CompileOptions['bundler'];
  /**
   * When the host dies or blocks during reconciles: record them as failed, start a new host and
   * retry their keys with backoff (`run`). Default false: report it and end (the debugger).
   */
  restartOnFailure?: boolean;
  /** Runs a TypeScript controller. Default: the controller host child process (ControllerProcess). */
  typeScriptHost?: () => TypeScriptHost;
  /** Shown to the views (controllerSessions). Default true; a check's many short runs are not. */
  listed?: boolean;
}

export type RuntimeEvents = {
  /** A TypeScript controller's module has loaded; it connects to the cluster next (a Go program never says this). */
  loaded: Record<string, never>;
  /** A controller loaded and its informers are starting (a Go manager: once per controller). */
  ready: { controller: ControllerShape };
  /** Every cache has synced; workers are running. */
  synced: Record<string, never>;
  reconcileStart: { record: ReconcileRecord };
  /** The record now carries writes, outcome, decision and duration. */
  reconcileEnd: { record: ReconcileRecord };
  /**
   * A Go program under a line debugger: write `index` of a running reconcile was acknowledged and
   * its goroutine waits in the client call until writeSeen().
   */
  write: { record: ReconcileRecord; index: number; write: WriteRecord; goroutine: number };
  /** `snapshot`: every controller's queue (see `queue`); `controller`: whose queue changed. */
  queue: { snapshot: QueueSnapshot; controller?: string };
  probe: { probe: Probe };
  delta: { delta: CacheDelta };
  /** What became of watch events at a controller's sources, `count` of them, decoded on demand. */
  fates: { count: number; decode(): EventFate[] };
  /** `uncaught`: the host caught an exception or rejection no user code handled. */
  log: { line: LogLine; record?: ReconcileRecord; uncaught?: boolean };
  /** `settled`: nothing left to do but retries of failing keys (see the host's idle message). */
  idle: { idle: boolean; settled?: boolean };
  /**
   * The host blocked (no heartbeat) or exited on its own. The reconciles it took down have ended
   * as failures (reconcileEnd) before this; `restarting`: a new host is starting.
   */
  hostFailed: { message: string; interrupted: ReconcileRecord[]; restarting: boolean };
  /** restartProcess killed the process and started a new one (`pid`); the reconciles it took down ended as failures. */
  restarted: { pid: number | undefined; interrupted: ReconcileRecord[] };
  /** Something was done to the run from outside (notePerturbation), at the cluster's `resourceVersion`. */
  perturbed: { what: string; resourceVersion: string; at: number };
  /** The controller could not be compiled (or built), loaded or connected, or its host failed. */
  fatal: { phase: 'compile' | 'load' | 'connect' | 'run'; message: string };
  output: { stream: 'stdout' | 'stderr'; text: string };
  inspector: { port: number; url: string };
  /** A debugger connected to the host's inspector. */
  debuggerAttached: Record<string, never>;
  exit: { code: number | null; signal: NodeJS.Signals | null };
};

/** How much longer than the reconcile timeout a silent host gets before it counts as blocked. */
const STALL_GRACE_MS = 1000;
/** Host failures in a row, without one successful reconcile between them, after which it stays down. */
const MAX_FAILURES_IN_A_ROW = 5;

export const DEFAULT_RECONCILE_TIMEOUT_MS = 30_000;

/** How the gate lets a reconcile through: `stepIn` pauses it in the JavaScript debugger first. */
export interface GateDecision {
  stepIn?: boolean;
}

export class ControllerSession extends TypedEmitter<RuntimeEvents> {
  readonly recorder: ReconcileRecorder;
  readonly cache = new CacheHistory();
  /** Every watch event's fate at each controller (see whyNot). */
  readonly fates = new FateLog();
  /** Informers the cluster refuses (RBAC). */
  readonly refusals = new InformerRefusals();
  /** The program's last lines of output: why it stopped, where its output is not shown (check). */
  readonly outputTail = new OutputTail();
  readonly target: ControllerTarget;
  private readonly options: ControllerSessionOptions;
  private readonly process: HostProcess;
  private compiled: CompiledController | undefined;
  /** By controller name ('' for a host that does not say whose queue it is). */
  private readonly queues = new Map<string, QueueSnapshot>();
  private lastQueue: QueueSnapshot = { at: 0, depth: 0, processing: 0, waiting: 0, keys: [] };
  private idleNow = false;
  private handledNow: Map<string, HandledView[]> | undefined;
  private settledNow = false;
  private readonly shapes = new Map<string, ControllerShape>();
  /** Reconciles started and not ended; `since`: when they began running (after the gate). */
  private readonly inFlightById = new Map<string, { record: ReconcileRecord; since?: number }>();
  private unresponsive: { silentMs: number } | undefined;
  private stopping = false;
  private hostReportedFatal = false;
  private lastReconcileSeq = 0;
  /** key → how many times its reconcile took the host down, and until when it is held back. */
  private readonly hostFailures = new Map<string, { count: number; until: number }>();
  private failuresInARow = 0;
  private disposeKubeconfig: (() => void) | undefined;
  /** The kubeconfig the controller's process reads (see prepareKubeconfig). */
  private kubeconfig: string;
  /** Set once the host reports `settled` itself (the TypeScript host); otherwise it is derived here. */
  private hostSendsSettled = false;
  /** `controller\0key` whose latest reconcile failed (for deriving `settled`). */
  private readonly failingKeys = new Set<string>();
  /** `controller\0key` whose latest reconcile wrote nothing and asked only for a requeueAfter (a periodic resync). */
  private readonly restingKeys = new Set<string>();
  /** How the Go program was started, to start it again (restartProcess). */
  private goStart: GoControllerOptions | undefined;
  /** Set by restartProcess: what to do when the killed process's exit arrives. */
  private afterKill: (() => void) | undefined;

  /** The kubeconfig it was started with: its cluster's (the views name that cluster). */
  get clusterKubeconfig(): string {
    return this.options.kubeconfig;
  }

  constructor(options: ControllerSessionOptions) {
    super();
    this.options = options;
    this.kubeconfig = options.kubeconfig;
    this.recorder = new ReconcileRecorder(options.history ?? 5000);
    this.target = controllerTarget(options.file, options.cwd);
    this.process = this.target.language === 'go' ? new GoControllerProcess() : (options.typeScriptHost?.() ?? new ControllerProcess());
  }

  get pid(): number | undefined {
    return this.process.pid;
  }
  /** Every controller's queue; with several controllers, keys read `controller key`. */
  get queue(): QueueSnapshot {
    return this.lastQueue;
  }
  /** One controller's queue (its keys as they are). */
  queueOf(controller: string): QueueSnapshot {
    return this.queues.get(controller) ?? this.lastQueue;
  }
  get idle(): boolean {
    return this.idleNow;
  }
  /**
   * Per watched resource, what each of its event handlers has been given (see handledViews.ts);
   * undefined from a host that does not say.
   */
  get handled(): ReadonlyMap<string, readonly HandledView[]> | undefined {
    return this.handledNow;
  }
  /** Nothing left to do but retries of failing keys. */
  get settled(): boolean {
    return this.settledNow;
  }
  /** The first controller (the only one, for a TypeScript controller). */
  get controller(): ControllerShape | undefined {
    return this.shapes.values().next().value;
  }
  /** Every controller that said `ready`, in that order. */
  get controllers(): ControllerShape[] {
    return [...this.shapes.values()];
  }
  get running(): boolean {
    return this.process.running;
  }

  /** Whether each controller reconciled an object's change, and why (not). */
  why(target: WhyTarget): WhyAnswer {
    return whyNot({ controllers: this.controllers, fates: this.fates, records: this.recorder.all(), refusals: this.refusals, queueOf: (c) => this.queues.get(c) ?? this.queues.get('') }, target);
  }

  /** Reconciles that started and have not ended (for "the host died while reconciling …"). */
  inFlight(): ReconcileRecord[] {
    return [...this.inFlightById.values()].map((r) => r.record);
  }

  /** Compiles (builds) and spawns. Resolves false (after a `fatal` event) when it does not compile. */
  async start(): Promise<boolean> {
    if (this.target.language === 'go') return this.startGo(this.target);
    try {
      this.compiled = await compileController(this.options.file, { bundler: this.options.bundler });
    } catch (err) {
      this.emit('fatal', { phase: 'compile', message: (err as Error).message });
      return false;
    }
    if (!this.prepareKubeconfig()) return false;
    this.wire();
    this.register();
    this.spawn();
    return true;
  }

  /**
   * The kubeconfig the controller gets: the user's own, or a private copy when it runs as another
   * user, or a Go program against a context other than the current one (it cannot be told which).
   */
  private prepareKubeconfig(): boolean {
    const { runAs, context } = this.options;
    if (!runAs && !(context && this.target.language === 'go')) return true;
    try {
      const copy = kubeconfigFor(this.options.kubeconfig, { context, runAs });
      this.disposeKubeconfig = copy.dispose;
      this.kubeconfig = copy.path;
      return true;
    } catch (err) {
      this.emit('fatal', { phase: 'load', message: (err as Error).message });
      return false;
    }
  }

  private async startGo(target: Extract<ControllerTarget, { language: 'go' }>): Promise<boolean> {
    const go = this.process as GoControllerProcess;
    const options = this.options.go ?? {};
    const failure = options.binary ? go.useBinary(options.binary) : await go.build({ packageDir: target.packageDir, moduleDir: target.moduleDir, buildFlags: options.buildFlags, goBinary: options.goBinary });
    // Stopped while it built (Ctrl+C, the debug session ended): the build was stopped with it, or
    // died of the same Ctrl+C; that is no failure of the program, and nothing starts.
    if (this.stopping) {
      go.dispose();
      return false;
    }
    if (failure !== undefined) {
      this.emit('fatal', { phase: 'compile', message: failure });
      return false;
    }
    if (!this.prepareKubeconfig()) return false;
    this.wire();
    this.register();
    this.goStart = {
      packageDir: target.packageDir,
      moduleDir: target.moduleDir,
      kubeconfig: this.kubeconfig,
      gated: this.options.gate !== undefined,
      mirrorCache: this.options.mirrorCache ?? true,
      args: withLoopbackProbes(target.packageDir, options.args ?? []),
      env: options.localWebhooks ? { ...localWebhooksEnv(target.moduleDir, options.env), ...options.env } : options.env,
      cwd: this.options.cwd,
      wrapCommand: options.wrapCommand,
      connectTimeoutMs: options.connectTimeoutMs,
    };
    await go.start(this.goStart);
    return true;
  }

  private spawn(restart?: { holdBack: HeldKey[] }): void {
    const compiled = this.compiled as CompiledController;
    const reconcileTimeoutMs = this.options.reconcileTimeoutMs ?? DEFAULT_RECONCILE_TIMEOUT_MS;
    (this.process as TypeScriptHost).start(
      {
        moduleFile: compiled.moduleFile,
        sourceFile: compiled.sourceFile,
        loader: compiled.loader,
        kubeconfig: this.kubeconfig,
        context: this.options.context,
        workers: this.options.workers,
        reconcileTimeoutMs,
        gated: this.options.gate !== undefined,
        mirrorCache: this.options.mirrorCache ?? true,
        holdBack: restart?.holdBack,
        reconcileSeq: restart ? this.lastReconcileSeq : undefined,
        deltaSeq: restart ? this.cache.seq : undefined,
        jitterSeed: this.options.jitterSeed,
      },
      {
        inspectBrk: this.options.inspectBrk,
        cwd: this.options.cwd,
        // No time limit (a line debugger attached) means the host may sit paused: no watchdog.
        stallMs: reconcileTimeoutMs > 0 && !this.options.inspectBrk ? Math.max(reconcileTimeoutMs, 1000) + STALL_GRACE_MS : 0,
        maxHeapMb: this.options.maxHeapMb,
      },
    );
  }

  private register(): void {
    if (this.options.listed !== false) registerSession(this);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.process.stop();
    unregisterSession(this);
    await this.compiled?.dispose().catch(() => {});
    this.disposeKubeconfig?.();
  }

  kill(): void {
    this.stopping = true;
    this.process.kill();
  }

  /**
   * Kills the controller's process (SIGKILL, as kill -9) and starts it again against the same
   * cluster, while the session, its records and its cache history go on: what a crash looks like
   * to the controller, inside one run. `beforeStart` runs once the kill is sent. The reconciles
   * the process took down end as failures; the new one numbers its reconciles and deltas on from
   * the old one's (a Go program is told through its environment), so every record stays unique.
   * A Go program starts again from the binary it was built to. `afterSync` runs once the new
   * process has synced its caches. False when no process runs.
   */
  restartProcess(options: { beforeStart?: () => void; afterSync?: () => void } = {}): boolean {
    if (!this.process.running || this.afterKill || this.stopping) return false;
    this.afterKill = () => {
      if (options.afterSync) this.once('synced', options.afterSync);
      void this.startAgain();
    };
    this.process.kill();
    options.beforeStart?.();
    return true;
  }

  private async startAgain(): Promise<void> {
    const interrupted = this.endInFlight({ kind: 'exited', code: null, signal: 'SIGKILL' });
    this.unresponsive = undefined;
    this.hostReportedFatal = false;
    this.idleNow = this.settledNow = false;
    if (this.process instanceof GoControllerProcess && this.goStart) {
      await this.process.start({ ...this.goStart, seqsFrom: { reconcile: this.lastReconcileSeq, delta: this.cache.seq } });
    } else {
      this.spawn({ holdBack: [] });
    }
    this.emit('restarted', { pid: this.pid, interrupted: interrupted.map((r) => r.record) });
  }

  /**
   * Something was done to this run from outside the controller (a check finding's perturbation,
   * replayed by the debugger): the views mark it where it happened.
   */
  notePerturbation(what: string, resourceVersion: string): void {
    this.emit('perturbed', { what, resourceVersion, at: Date.now() });
  }

  /** Every object of each controller's For kind is reconciled again, as a resync or a restart would. */
  resync(): void {
    this.process.send({ type: 'resync' });
  }

  /** A held write (the `write` event) goes on. */
  writeSeen(record: ReconcileRecord, index: number): void {
    this.process.send({ type: 'writeSeen', reconcileId: record.reconcileId, index });
  }

  private wire(): void {
    const p = this.process;
    p.on('loaded', () => this.emit('loaded', {}));
    p.on('ready', (m) => {
      this.shapes.set(m.controller.name, m.controller);
      this.emit('ready', { controller: m.controller });
    });
    p.on('synced', () => this.emit('synced', {}));
    p.on('fatal', (m) => {
      if (m.phase !== 'run') this.hostReportedFatal = true;
      this.emit('fatal', { phase: m.phase, message: m.message });
    });
    p.on('delta', (m) => {
      this.cache.apply(m.delta);
      this.emit('delta', { delta: m.delta });
    });
    p.on('queue', (m) => {
      this.queues.set(m.controller ?? '', m.snapshot);
      this.lastQueue = this.queues.size === 1 ? m.snapshot : mergeQueues(this.queues);
      this.emit('queue', { snapshot: this.lastQueue, controller: m.controller });
      this.deriveSettled();
    });
    p.on('idle', (m) => {
      if (m.settled !== undefined) this.hostSendsSettled = true;
      this.idleNow = m.idle;
      this.settledNow = m.settled ?? (m.idle || this.onlyRetriesOrResyncsLeft());
      this.emit('idle', { idle: m.idle, settled: this.settledNow });
    });
    p.on('handled', (m) => {
      if (Array.isArray(m.resources)) this.handledNow = new Map(m.resources.map((r) => [r.resource, r.views]));
    });
    p.on('probe', (m) => {
      this.refusals.probe(m.probe);
      this.emit('probe', { probe: m.probe });
    });
    p.on('fates', (m) => {
      if (typeof m.data !== 'string') return;
      const count = Number(m.count) || 0;
      this.fates.addBatch(m.data, count);
      this.emit('fates', { count, decode: () => decodeFateBatch(m.data) });
    });
    // One fate per message: a host built before fates were batched.
    p.on('fate', (m) => {
      this.fates.add(m.fate);
      this.emit('fates', { count: 1, decode: () => [m.fate] });
    });
    p.on('log', (m) => {
      if (m.reconcileId) this.recorder.log(m.reconcileId, m.line);
      this.emit('log', { line: m.line, record: m.reconcileId ? this.recorder.get(m.reconcileId) : undefined, uncaught: m.uncaught === true || undefined });
    });
    p.on('reconcileStart', (m) => {
      const record = this.recorder.start(m.record);
      this.lastReconcileSeq = Math.max(this.lastReconcileSeq, record.seq);
      const running: { record: ReconcileRecord; since?: number } = { record, since: m.gated ? undefined : performance.now() };
      this.inFlightById.set(record.reconcileId, running);
      this.emit('reconcileStart', { record });
      if (m.gated) {
        const gate = this.options.gate ?? (() => Promise.resolve());
        void gate(record).then((d) => {
          running.since = performance.now();
          // A JavaScript debugger is about to hold the host: its silence means nothing any more.
          if (d?.stepIn) p.stopWatchdog();
          p.proceed(record.reconcileId, d?.stepIn === true);
        });
      }
    });
    p.on('write', (m) => {
      const record = this.recorder.get(m.reconcileId);
      if (!record) return this.process.send({ type: 'writeSeen', reconcileId: m.reconcileId, index: m.index });
      this.emit('write', { record, index: m.index, write: m.write, goroutine: m.goroutine });
    });
    p.on('reconcileEnd', (m) => {
      if (m.end.outcome.kind === 'success') this.failuresInARow = 0;
      this.inFlightById.delete(m.end.reconcileId);
      const record = this.recorder.end(m.end);
      if (record) {
        const failing = `${record.controller}\0${record.key}`;
        if (m.end.outcome.kind === 'error') this.failingKeys.add(failing);
        else this.failingKeys.delete(failing);
        if (m.end.outcome.kind === 'success' && m.end.decision.action === 'addAfter' && m.end.writes.length === 0) this.restingKeys.add(failing);
        else this.restingKeys.delete(failing);
        this.emit('reconcileEnd', { record });
        this.deriveSettled();
      }
    });
    p.on('output', (m) => {
      this.refusals.output(m.text);
      this.outputTail.add(m.text);
      this.emit('output', m);
    });
    p.on('inspector', (m) => this.emit('inspector', m));
    p.on('debuggerAttached', () => this.emit('debuggerAttached', {}));
    p.on('unresponsive', (m) => (this.unresponsive = m));
    p.on('exit', (m) => {
      const afterKill = this.afterKill;
      this.afterKill = undefined;
      if (afterKill && !this.stopping) return afterKill();
      // A host that said why it fails (fatal) exits as it said; any other exit nobody asked for is a failure.
      if (!m.expected && !this.stopping && !this.hostReportedFatal && this.hostFailed(m)) return;
      unregisterSession(this);
      this.emit('exit', { code: m.code, signal: m.signal });
    });
  }

  /**
   * For a host that does not say (a Go program): settled when nothing is queued or processing and
   * every waiting key waits to retry a reconcile that failed, or for the requeueAfter of one that
   * wrote nothing, as the TypeScript host decides it.
   */
  private onlyRetriesOrResyncsLeft(): boolean {
    if (this.queues.size === 0) return false;
    for (const [controller, q] of this.queues) {
      if (q.depth > 0 || q.processing > 0 || q.omitted) return false;
      for (const k of q.keys) {
        const id = `${controller}\0${k.key}`;
        if (k.state !== 'waiting' || !(this.failingKeys.has(id) || this.restingKeys.has(id))) return false;
      }
    }
    return true;
  }

  private deriveSettled(): void {
    if (this.hostSendsSettled || this.idleNow) return;
    const settled = this.onlyRetriesOrResyncsLeft();
    if (settled === this.settledNow) return;
    this.settledNow = settled;
    this.emit('idle', { idle: false, settled });
  }

  /**
   * The host went down on its own. Its reconciles end as failures; with restartOnFailure and a
   * reconcile to blame, a new host starts with those keys held back. Returns true when restarting.
   */
  private hostFailed(exit: { code: number | null; signal: NodeJS.Signals | null; heapLimitMb?: number }): boolean {
    const cause: HostFailureCause = this.unresponsive ? { kind: 'unresponsive', silentMs: this.unresponsive.silentMs } : { kind: 'exited', ...exit };
    this.unresponsive = undefined;
    const interrupted = this.endInFlight(cause);
    this.failuresInARow++;
    const giveUp = this.failuresInARow >= MAX_FAILURES_IN_A_ROW;
    // A Go program restarted would number its reconciles and deltas from 1 again: it is not restarted.
    const restarting = this.options.restartOnFailure === true && this.target.language !== 'go' && interrupted.some((r) => r.runningMs !== undefined) && !giveUp;
    const host = this.target.language === 'go' ? `Go controller process${this.pid ? ` (pid ${this.pid})` : ''}` : undefined;
    let message = describeHostFailure(this.controller?.name ?? this.options.file, cause, interrupted, host);
    // What stopped it, when its output says: asking whether it calls Wrap would only mislead.
    const hint = this.target.language === 'go' ? goExitHint(this.outputTail.lines().join('\n')) : undefined;
    if (this.process instanceof GoControllerProcess && !this.process.connected) {
      message += ` before it connected to Controller Lab${hint ? '' : ` (its output above says why; ${WRAP_HINT})`}`;
    }
    if (hint) message += `; ${hint}`;
    if (giveUp && this.options.restartOnFailure) message += `; it failed ${this.failuresInARow} times in a row without a successful reconcile: not restarting it again`;
    for (const r of interrupted) {
      if (r.runningMs !== undefined) {
        const failures = (this.hostFailures.get(r.record.key)?.count ?? 0) + 1;
        this.hostFailures.set(r.record.key, { count: failures, until: Date.now() + hostFailureBackoffMs(failures) });
      }
    }
    this.emit('hostFailed', { message, interrupted: interrupted.map((r) => r.record), restarting });
    if (!restarting) {
      this.emit('fatal', { phase: 'run', message });
      return false;
    }
    const holdBack: HeldKey[] = [];
    for (const [key, f] of this.hostFailures) if (f.until > Date.now()) holdBack.push({ key, delayMs: f.until - Date.now(), failures: f.count });
    this.idleNow = this.settledNow = false;
    this.spawn({ holdBack });
    return true;
  }

  /** The reconciles a process took down with it end as failures (a reconcileEnd each). */
  private endInFlight(cause: HostFailureCause): InterruptedReconcile[] {
    const now = performance.now();
    const interrupted: InterruptedReconcile[] = [...this.inFlightById.values()].map((r) => ({ record: r.record, runningMs: r.since === undefined ? undefined : now - r.since }));
    this.inFlightById.clear();
    for (const r of interrupted) {
      const record = this.recorder.end({
        reconcileId: r.record.reconcileId,
        seq: r.record.seq,
        durationMs: Math.round(r.runningMs ?? 0),
        writes: [],
        outcome: interruptedOutcome(cause, r),
        decision: { action: 'addRateLimited', reason: 'error' },
      });
      if (record) this.emit('reconcileEnd', { record });
    }
    return interrupted;
  }
}
