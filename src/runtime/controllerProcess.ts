import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TypedEmitter } from './typedEmitter.ts';
import { HostWatchdog, heartbeatInterval } from './hostWatchdog.ts';
import { processCpuMs } from './processCpu.ts';
import { adoptMark, endLeftovers, markedEnv, noteDescendants, OWN_PROCESS_GROUP } from './processGroup.ts';
import { isHostMessage, type HostInit, type ParentMessage } from '../controllerProtocol/index.ts';
import type { ControllerProcessEvents, HostSpawnOptions, TypeScriptHost } from './hostProcess.ts';

// The parent's handle on one controller host child: spawns it, speaks the typed IPC protocol, and
// makes sure it ends (graceful shutdown, then SIGKILL). A crash or hang in the child only ever shows
// up here as events; nothing it does can throw into the parent.

/** The host entry: the TS source when we run from source, the bundle next to us when bundled. */
export function controllerHostEntry(): string {
  const here = import.meta.url;
  const candidates = here.endsWith('.ts')
    ? [new URL('../host/controllerHostMain.ts', here)]
    : [new URL('./controllerHost.cjs', here), new URL('../dist/controllerHost.cjs', here), new URL('../../dist/controllerHost.cjs', here)];
  for (const c of candidates) {
    const p = fileURLToPath(c);
    if (existsSync(p)) return p;
  }
  throw new Error(`controller host not found next to ${fileURLToPath(here)} (run npm run build)`);
}

/**
 * The young generation capped at 2 × 4 MB, as the controller-lab command runs (CLI_NODE_FLAGS in
 * scripts/cliBuild.mjs): V8 grows it to 64 MB on a large machine, and a controller's informers
 * fill it and leave the process holding those pages, for no CPU saved.
 */
export const HOST_HEAP_FLAGS = ['--max-semi-space-size=4'];

/**
 * The controller host's heap limit unless told: a controller that leaks is stopped at 2 GB, said to
 * have run out of memory, instead of growing the machine's memory away until V8's own limit.
 */
export const DEFAULT_HOST_HEAP_MB = 2048;

/** What V8 prints when a heap reaches its limit, before it aborts the process. */
const OUT_OF_MEMORY = /JavaScript heap out of memory|Reached heap limit/;
/** Where V8's report of a full heap starts: the rest of what the dying process prints is that report. */
const OUT_OF_MEMORY_REPORT = /<--- Last few GCs --->|FATAL ERROR: .*(?:heap limit|heap out of memory)/;

export class ControllerProcess extends TypedEmitter<ControllerProcessEvents> implements TypeScriptHost {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private alive = false;
  private expectingExit = false;
  private watchdog: HostWatchdog | undefined;

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.alive;
  }

  start(init: Omit<HostInit, 'type'>, options: HostSpawnOptions = {}): void {
    const execArgv = ['--enable-source-maps', '--no-warnings=ExperimentalWarning', ...HOST_HEAP_FLAGS];
    const maxHeapMb = options.maxHeapMb ?? DEFAULT_HOST_HEAP_MB;
    if (maxHeapMb > 0) execArgv.push(`--max-old-space-size=${Math.floor(maxHeapMb)}`);
    if (options.inspectBrk) execArgv.push('--inspect-brk=0');
    let outOfMemory = false;
    // In VS Code's extension host, execPath is Electron: make it behave as plain Node.
    const env = markedEnv({ ...process.env, ...options.env, ELECTRON_RUN_AS_NODE: '1' });
    const child = fork(controllerHostEntry(), [], {
      execPath: process.execPath,
      execArgv,
      cwd: options.cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      serialization: 'advanced',
      detached: OWN_PROCESS_GROUP,
    });
    adoptMark(child, env);
    this.child = child;
    this.alive = true;
    this.expectingExit = false;
    const stallMs = options.stallMs ?? 0;
    const watchdog = stallMs > 0
      ? new HostWatchdog({
          stallMs,
          cpuMs: () => processCpuMs(child.pid),
          onStall: (silentMs) => {
            this.emit('unresponsive', { silentMs });
            noteDescendants(child);
            child.kill('SIGKILL');
          },
        })
      : undefined;
    this.watchdog = watchdog;
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        watchdog?.stop();
        endLeftovers(child);
        this.alive = false;
        this.emit('exit', { code, signal, expected: this.expectingExit, ...(outOfMemory ? { heapLimitMb: maxHeapMb } : {}) });
        resolve();
      });
    });
    child.on('error', (err) => this.emit('output', { stream: 'stderr', text: `controller host: ${err.message}\n` }));
    const dispatch = (m: unknown): void => {
      if (!isHostMessage(m)) return;
      if (m.type === 'heartbeat') return watchdog?.heartbeat();
      watchdog?.message();
      if (m.type === 'batch') {
        if (Array.isArray(m.messages)) for (const one of m.messages) dispatch(one);
      } else if (m.type === 'inspector') {
        const port = Number(/:(\d+)\//.exec(m.url)?.[1] ?? 0);
        this.emit('inspector', { url: m.url, port });
      } else this.emit(m.type, m as never);
    };
    child.on('message', dispatch);
    child.stdout?.setEncoding('utf8').on('data', (text: string) => this.emit('output', { stream: 'stdout', text }));
    let inspectorFound = false;
    let dying = false;
    child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      if (OUT_OF_MEMORY.test(text)) outOfMemory = true;
      // V8's report of a full heap (GC traces, native stack) is replaced by the session's one line.
      if (dying) return;
      const report = OUT_OF_MEMORY_REPORT.exec(text);
      if (report) {
        dying = true;
        const before = text.slice(0, report.index);
        text = before.trim() ? before : '';
      }
      const m = /Debugger listening on (ws:\/\/[^:\s]+:(\d+)\/\S+)/.exec(text);
      if (m && !inspectorFound) {
        inspectorFound = true;
        this.emit('inspector', { url: m[1] as string, port: Number(m[2]) });
      }
      if (/^Debugger attached\./m.test(text)) {
        // Its breakpoints may pause the host for as long as the user looks: silence means nothing now.
        watchdog?.stop();
        this.emit('debuggerAttached', {});
      }
      // The inspector's own chatter is not the controller's output.
      const rest = text.replace(/^(Debugger listening on|For help, see|Debugger attached|Debugger ending on|Waiting for the debugger).*\n?/gm, '');
      if (rest) this.emit('output', { stream: 'stderr', text: rest });
    });
    this.send({ type: 'init', ...init, heartbeatMs: watchdog ? heartbeatInterval(stallMs) : undefined });
  }

  /** From now on a JavaScript debugger may hold the child paused: silence no longer means blocked. */
  stopWatchdog(): void {
    this.watchdog?.stop();
  }

  send(message: ParentMessage): void {
    // A child that fails to load exits at once, so a message may race its exit (EPIPE); the exit
    // event already says it is gone, so the failed send is not reported again as output.
    if (this.child?.connected) this.child.send(message, () => {});
  }

  proceed(reconcileId: string, stepIn = false): void {
    this.send({ type: 'proceed', reconcileId, stepIn: stepIn || undefined });
  }

  /** Asks the child to stop; kills it if it has not exited within `graceMs`. Resolves once it is gone. */
  async stop(graceMs = 2000): Promise<void> {
    const child = this.child;
    if (!child || !this.alive) return;
    this.expectingExit = true;
    noteDescendants(child);
    this.send({ type: 'shutdown' });
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  /** Immediate: for a parent that is exiting itself. */
  kill(): void {
    if (!this.alive) return;
    this.expectingExit = true;
    if (this.child) noteDescendants(this.child);
    this.child?.kill('SIGKILL');
  }
}
