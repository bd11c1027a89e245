import type { Probe } from '../informer/probes.ts';
import { TypedEmitter } from './typedEmitter.ts';
import { compileController, type CompiledController, type CompileOptions } from './compileController.ts';
import { ControllerProcess } from './controllerProcess.ts';
import type { CacheDelta, ControllerShape } from './protocol.ts';
import type { LogLine, QueueSnapshot, ReconcileRecord } from './records.ts';
import { ReconcileRecorder } from './recorder.ts';
import { CacheHistory } from './cacheHistory.ts';
import { registerSession, unregisterSession } from './sessionRegistry.ts';

// One run of a user controller, as the CLI, the debugger and the extension's views see it: compile,
// spawn the host, and turn its messages into a typed stream of runtime events, while recording every
// reconcile and the cache history. The debugger adds a gate; the others let reconciles run freely.

export interface ControllerSessionOptions {
  /** The user's controller file (.ts or .js). */
  file: string;
  kubeconfig: string;
  context?: string;
  workers?: number;
  /** Default 30 s; 0 disables (used while a line debugger is attached). */
  reconcileTimeoutMs?: number;
  /** Decides when a reconcile may run; when absent every reconcile runs at once. */
  gate?: (record: ReconcileRecord) => Promise<GateDecision | void>;
  inspectBrk?: boolean;
  cwd?: string;
  /** Records kept for stepping back. Default 5000. */
  history?: number;
  /** Forward every cached object to this process (cache history for stepBack/evaluate). Default true. */
  mirrorCache?: boolean;
  /** Default: esbuild when installed, else the user's files load through type stripping. */
  bundler?: CompileOptions['bundler'];
}

export type RuntimeEvents = {
  /** The controller loaded and its informers are starting. */
  ready: { controller: ControllerShape };
  /** Every cache has synced; workers are running. */
  synced: Record<string, never>;
  reconcileStart: { record: ReconcileRecord };
  /** The record now carries writes, outcome, decision and duration. */
  reconcileEnd: { record: ReconcileRecord };
  queue: { snapshot: QueueSnapshot };
  probe: { probe: Probe };
  delta: { delta: CacheDelta };
  log: { line: LogLine; record?: ReconcileRecord };
  idle: { idle: boolean };
  /** The controller could not be compiled, loaded or connected, or its host failed. */
  fatal: { phase: 'compile' | 'load' | 'connect' | 'run'; message: string };
  output: { stream: 'stdout' | 'stderr'; text: string };
  inspector: { port: number; url: string };
  /** A debugger connected to the host's inspector. */
  debuggerAttached: Record<string, never>;
  exit: { code: number | null; signal: NodeJS.Signals | null };
};

export const DEFAULT_RECONCILE_TIMEOUT_MS = 30_000;

/** How the gate lets a reconcile through: `stepIn` pauses it in the JavaScript debugger first. */
export interface GateDecision {
  stepIn?: boolean;
}

export class ControllerSession extends TypedEmitter<RuntimeEvents> {
  readonly recorder: ReconcileRecorder;
  readonly cache = new CacheHistory();
  private readonly options: ControllerSessionOptions;
  private readonly process = new ControllerProcess();
  private compiled: CompiledController | undefined;
  private lastQueue: QueueSnapshot = { at: 0, depth: 0, processing: 0, waiting: 0, keys: [] };
  private idleNow = false;
  private controllerShape: ControllerShape | undefined;

  constructor(options: ControllerSessionOptions) {
    super();
    this.options = options;
    this.recorder = new ReconcileRecorder(options.history ?? 5000);
  }

  get pid(): number | undefined {
    return this.process.pid;
  }
  get queue(): QueueSnapshot {
    return this.lastQueue;
  }
  get idle(): boolean {
    return this.idleNow;
  }
  get controller(): ControllerShape | undefined {
    return this.controllerShape;
  }
  get running(): boolean {
    return this.process.running;
  }

  /** Reconciles that started and have not ended (for "the host died while reconciling …"). */
  inFlight(): ReconcileRecord[] {
    return this.recorder.all().filter((r) => r.outcome === undefined);
  }

  /** Compiles and spawns. Resolves false (after a `fatal` event) when the file does not compile. */
  async start(): Promise<boolean> {
    try {
      this.compiled = await compileController(this.options.file, { bundler: this.options.bundler });
    } catch (err) {
      this.emit('fatal', { phase: 'compile', message: (err as Error).message });
      return false;
    }
    this.wire();
    registerSession(this);
    this.process.start(
      {
        moduleFile: this.compiled.moduleFile,
        sourceFile: this.compiled.sourceFile,
        loader: this.compiled.loader,
        kubeconfig: this.options.kubeconfig,
        context: this.options.context,
        workers: this.options.workers,
        reconcileTimeoutMs: this.options.reconcileTimeoutMs ?? DEFAULT_RECONCILE_TIMEOUT_MS,
        gated: this.options.gate !== undefined,
        mirrorCache: this.options.mirrorCache ?? true,
      },
      { inspectBrk: this.options.inspectBrk, cwd: this.options.cwd },
    );
    return true;
  }

  async stop(): Promise<void> {
    await this.process.stop();
    unregisterSession(this);
    await this.compiled?.dispose().catch(() => {});
  }

  kill(): void {
    this.process.kill();
  }

  private wire(): void {
    const p = this.process;
    p.on('ready', (m) => {
      this.controllerShape = m.controller;
      this.emit('ready', { controller: m.controller });
    });
    p.on('synced', () => this.emit('synced', {}));
    p.on('fatal', (m) => this.emit('fatal', { phase: m.phase, message: m.message }));
    p.on('delta', (m) => {
      this.cache.apply(m.delta);
      this.emit('delta', { delta: m.delta });
    });
    p.on('queue', (m) => {
      this.lastQueue = m.snapshot;
      this.emit('queue', { snapshot: m.snapshot });
    });
    p.on('idle', (m) => {
      this.idleNow = m.idle;
      this.emit('idle', { idle: m.idle });
    });
    p.on('probe', (m) => this.emit('probe', { probe: m.probe }));
    p.on('log', (m) => {
      if (m.reconcileId) this.recorder.log(m.reconcileId, m.line);
      this.emit('log', { line: m.line, record: m.reconcileId ? this.recorder.get(m.reconcileId) : undefined });
    });
    p.on('reconcileStart', (m) => {
      const record = this.recorder.start(m.record);
      this.emit('reconcileStart', { record });
      if (m.gated) {
        const gate = this.options.gate ?? (() => Promise.resolve());
        void gate(record).then((d) => p.proceed(record.reconcileId, d?.stepIn === true));
      }
    });
    p.on('reconcileEnd', (m) => {
      const record = this.recorder.end(m.end);
      if (record) this.emit('reconcileEnd', { record });
    });
    p.on('output', (m) => this.emit('output', m));
    p.on('inspector', (m) => this.emit('inspector', m));
    p.on('debuggerAttached', () => this.emit('debuggerAttached', {}));
    p.on('exit', (m) => {
      unregisterSession(this);
      this.emit('exit', m);
    });
  }
}
