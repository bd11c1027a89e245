import { spawn, type ChildProcess } from 'node:child_process';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { TypedEmitter } from '../runtime/typedEmitter.ts';
import { DelveConnection } from './delveConnection.ts';

// A Go program running under Delve: `dlv dap` (Delve's own debug adapter, which VS Code's Go
// extension also starts for a launch), a DAP client on its port, and the program launched in
// `exec` mode from a binary built with `-gcflags=all=-N -l` (no optimisation, no inlining, so
// every line and local of Reconcile is there). Line breakpoints, stops, stacks and variables are
// Delve's; this class only starts it, relays its events and makes sure nothing outlives it.

/** Build flags for a binary Delve can step through line by line. */
export const DELVE_BUILD_FLAGS = ['-gcflags=all=-N -l'];

export interface DelveLaunchOptions {
  dlvPath: string;
  /** The built binary (mode exec). */
  program: string;
  cwd: string;
  /** Added to the program's environment (Controller Lab's socket, secret, KUBECONFIG…). */
  env: Record<string, string | undefined>;
  args?: string[];
  /** Bounds Delve's start-up (default 30 s). */
  timeoutMs?: number;
}

export interface DelveBreakpointSpec {
  line: number;
  condition?: string;
  hitCondition?: string;
  logMessage?: string;
}

export interface DelveEvents extends Record<string, unknown> {
  stopped: DebugProtocol.StoppedEvent['body'];
  continued: DebugProtocol.ContinuedEvent['body'];
  output: { category: string; text: string };
  /** The program exited (Delve reports it before it ends the session). */
  exited: { exitCode: number };
  /** Delve is gone: the session ended, dlv exited, nothing of it is left running. */
  ended: { reason: string };
  /** Every other Delve event, as Delve sent it (for adapters that relay Delve to a client). */
  event: DebugProtocol.Event;
}

const LISTENING = /DAP server listening at:\s*(\S+):(\d+)/;

export class DelveDebugger extends TypedEmitter<DelveEvents> {
  private ended = false;
  private readonly endedPromise: Promise<void>;
  private readonly dlv: ChildProcess;
  private readonly connection: DelveConnection;

  private constructor(dlv: ChildProcess, connection: DelveConnection, dlvExited: Promise<void>) {
    super();
    this.dlv = dlv;
    this.connection = connection;
    connection.on('event', (e) => this.onEvent(e));
    this.endedPromise = dlvExited.then(() => {
      this.connection.dispose();
      this.ended = true;
      this.emit('ended', { reason: 'Delve exited' });
    });
  }

  /**
   * Starts dlv, launches the program and waits for Delve's `initialized`: set breakpoints now,
   * then configurationDone() lets the program run.
   */
  static async start(options: DelveLaunchOptions): Promise<DelveDebugger> {
    const timeoutMs = options.timeoutMs ?? 30_000;
    // dlv only listens on loopback; its log lines go to our output, not to the user's program output.
    const dlv = spawn(options.dlvPath, ['dap', '--listen=127.0.0.1:0'], { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let earlyOutput = '';
    const dlvExited = new Promise<void>((done) => {
      dlv.once('exit', () => done());
      dlv.once('error', () => done());
    });
    const address = await new Promise<{ host: string; port: number }>((resolve, reject) => {
      const timer = setTimeout(() => fail(new Error(`dlv did not start listening within ${timeoutMs} ms:\n${earlyOutput}`)), timeoutMs);
      const fail = (err: Error) => {
        clearTimeout(timer);
        dlv.kill('SIGKILL');
        reject(err);
      };
      const onData = (text: string) => {
        earlyOutput += text;
        const m = LISTENING.exec(earlyOutput);
        if (!m) return;
        clearTimeout(timer);
        resolve({ host: m[1] ?? '127.0.0.1', port: Number(m[2]) });
      };
      dlv.stdout?.setEncoding('utf8').on('data', onData);
      dlv.stderr?.setEncoding('utf8').on('data', onData);
      dlv.once('error', (err) => fail(new Error(`cannot start ${options.dlvPath}: ${err.message}`)));
      dlv.once('exit', (code) => fail(new Error(`dlv exited (code ${code}) before listening:\n${earlyOutput}`)));
    });
    let connection: DelveConnection;
    try {
      connection = await DelveConnection.open(address.host, address.port, timeoutMs);
    } catch (err) {
      dlv.kill('SIGKILL');
      throw err;
    }
    const debug = new DelveDebugger(dlv, connection, dlvExited);
    // From here on dlv's own lines (and the program's, which it passes through) are output.
    dlv.stdout?.removeAllListeners('data').on('data', (text: string) => debug.emit('output', { category: 'stdout', text }));
    dlv.stderr?.removeAllListeners('data').on('data', (text: string) => debug.emit('output', { category: 'stderr', text }));
    try {
      await connection.request('initialize', {
        clientID: 'controller-lab',
        clientName: 'Controller Lab',
        adapterID: 'go',
        pathFormat: 'path',
        linesStartAt1: true,
        columnsStartAt1: true,
        supportsVariableType: true,
        supportsVariablePaging: true,
        locale: 'en-us',
      });
      const initialized = connection.waitForEvent('initialized', timeoutMs);
      await connection.request('launch', {
        request: 'launch',
        mode: 'exec',
        program: options.program,
        args: options.args ?? [],
        cwd: options.cwd,
        env: options.env,
        stopOnEntry: false,
      });
      await initialized;
    } catch (err) {
      await debug.shutdown();
      throw err;
    }
    return debug;
  }

  get pid(): number | undefined {
    return this.dlv.pid;
  }

  /** dlv's process: the program's stdout/stderr come through it (Delve passes them on). */
  get process(): ChildProcess {
    return this.dlv;
  }

  get running(): boolean {
    return !this.ended;
  }

  /** Replaces the breakpoints of one Go file; Delve answers which it could place and on what line. */
  async setBreakpoints(path: string, breakpoints: DelveBreakpointSpec[]): Promise<DebugProtocol.Breakpoint[]> {
    const r = await this.request<DebugProtocol.SetBreakpointsResponse>('setBreakpoints', { source: { path }, breakpoints, lines: breakpoints.map((b) => b.line) });
    return r.body.breakpoints;
  }

  configurationDone(): Promise<DebugProtocol.Response> {
    return this.request('configurationDone');
  }

  async continue(threadId: number): Promise<void> {
    await this.request('continue', { threadId });
  }

  async stackTrace(threadId: number, levels = 20): Promise<DebugProtocol.StackFrame[]> {
    const r = await this.request<DebugProtocol.StackTraceResponse>('stackTrace', { threadId, startFrame: 0, levels });
    return r.body.stackFrames;
  }

  async scopes(frameId: number): Promise<DebugProtocol.Scope[]> {
    return (await this.request<DebugProtocol.ScopesResponse>('scopes', { frameId })).body.scopes;
  }

  async variables(variablesReference: number): Promise<DebugProtocol.Variable[]> {
    return (await this.request<DebugProtocol.VariablesResponse>('variables', { variablesReference })).body.variables;
  }

  /** Any DAP request, passed to Delve as it is (an adapter relaying Delve's answers uses this). */
  request<R extends DebugProtocol.Response = DebugProtocol.Response>(command: string, args?: unknown): Promise<R> {
    return this.connection.request<R>(command, args);
  }

  /**
   * Ends the program and Delve: disconnect with terminateDebuggee (Delve kills the program it
   * launched, stopped at a breakpoint or not), then SIGTERM and SIGKILL dlv if it lingers.
   */
  async shutdown(graceMs = 3000): Promise<void> {
    if (this.ended) return;
    const term = setTimeout(() => this.dlv.kill('SIGTERM'), graceMs);
    const kill = setTimeout(() => this.dlv.kill('SIGKILL'), graceMs * 2);
    if (!this.connection.closed) {
      await Promise.race([this.connection.request('disconnect', { terminateDebuggee: true }).catch(() => undefined), this.endedPromise]);
    }
    await this.endedPromise;
    clearTimeout(term);
    clearTimeout(kill);
  }

  private onEvent(e: DebugProtocol.Event): void {
    switch (e.event) {
      case 'stopped':
        this.emit('stopped', (e as DebugProtocol.StoppedEvent).body);
        return;
      case 'continued':
        this.emit('continued', (e as DebugProtocol.ContinuedEvent).body);
        return;
      case 'output': {
        const body = (e as DebugProtocol.OutputEvent).body;
        this.emit('output', { category: body.category ?? 'console', text: body.output });
        return;
      }
      case 'exited':
        this.emit('exited', { exitCode: (e as DebugProtocol.ExitedEvent).body.exitCode });
        return;
      case 'terminated':
        // The program is gone; Delve's single-use server exits once its client hangs up.
        void this.shutdown();
        return;
      default:
        this.emit('event', e);
    }
  }
}
