import { createServer } from 'node:net';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { TypedEmitter } from '../../runtime/index.ts';
import { DelveConnection } from './delveConnection.ts';

// A Go program running under Delve, as VS Code's Go extension runs one for a remote attach:
// `dlv exec --headless --api-version=2 --listen=127.0.0.1:<port> <binary>` starts the program
// halted (built with `-gcflags=all=-N -l`: no optimisation, no inlining, so every line and local
// of Reconcile is there); a DAP client attaches (`"request": "attach", "mode": "remote"`), sets
// breakpoints, and configurationDone lets the program run. Whoever starts the program (here:
// GoControllerProcess through its wrapCommand) keeps its environment, so Controller Lab's socket
// and secret reach the program unchanged. Line breakpoints, stops, stacks and variables are
// Delve's; this class relays them and makes sure nothing outlives the session. Without
// --accept-multiclient, dlv ends when its one client disconnects.

/** Build flags for a binary Delve can step through line by line. */
export const DELVE_BUILD_FLAGS = ['-gcflags=all=-N -l'];

/** The command that runs `binary args…` under a headless Delve listening on 127.0.0.1:port. */
export function delveExecCommand(dlvPath: string, port: number, binary: string, args: string[]): { command: string; args: string[] } {
  return { command: dlvPath, args: ['exec', '--headless', '--api-version=2', `--listen=127.0.0.1:${port}`, binary, '--', ...args] };
}

/** A loopback port nobody listens on now (dlv binds it a moment later). */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface DelveAttachOptions {
  port: number;
  /** How long to wait for dlv to listen and answer (default 30 s). */
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
  /** The session with Delve is over (dlv ends with it). */
  ended: { reason: string };
  /** Every other Delve event, as Delve sent it. */
  event: DebugProtocol.Event;
}

export class DelveDebugger extends TypedEmitter<DelveEvents> {
  private ended = false;
  private readonly breakpointFiles = new Set<string>();
  private functionBreakpoints = false;
  private readonly connection: DelveConnection;

  private constructor(connection: DelveConnection) {
    super();
    this.connection = connection;
    connection.on('event', (e) => this.onEvent(e));
    connection.on('closed', ({ reason }) => {
      this.ended = true;
      this.emit('ended', { reason });
    });
  }

  /**
   * Attaches to a headless dlv (retrying while it starts) and waits for Delve's `initialized`:
   * set breakpoints now, then configurationDone() lets the halted program run.
   */
  static async attach(options: DelveAttachOptions): Promise<DelveDebugger> {
    const timeoutMs = options.timeoutMs ?? 30_000;
    const deadline = Date.now() + timeoutMs;
    let connection: DelveConnection | undefined;
    while (!connection) {
      try {
        connection = await DelveConnection.open('127.0.0.1', options.port, Math.max(1, deadline - Date.now()));
      } catch (err) {
        if (Date.now() >= deadline) throw new Error(`Delve did not listen on 127.0.0.1:${options.port} within ${timeoutMs} ms (${(err as Error).message})`, { cause: err });
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    const debug = new DelveDebugger(connection);
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
      await connection.request('attach', { request: 'attach', mode: 'remote', stopOnEntry: false });
      await initialized;
    } catch (err) {
      await debug.shutdown();
      throw err;
    }
    return debug;
  }

  get running(): boolean {
    return !this.ended;
  }

  /** Replaces the breakpoints of one Go file; Delve answers which it could place and on what line. */
  async setBreakpoints(path: string, breakpoints: DelveBreakpointSpec[]): Promise<DebugProtocol.Breakpoint[]> {
    this.breakpointFiles.add(path);
    const r = await this.request<DebugProtocol.SetBreakpointsResponse>('setBreakpoints', { source: { path }, breakpoints, lines: breakpoints.map((b) => b.line) });
    return r.body.breakpoints;
  }

  /** Replaces Delve's function breakpoints (`main.(*r).Reconcile`); Delve answers which it placed. */
  async setFunctionBreakpoints(breakpoints: DebugProtocol.FunctionBreakpoint[]): Promise<DebugProtocol.Breakpoint[]> {
    this.functionBreakpoints = breakpoints.length > 0;
    const r = await this.request<DebugProtocol.SetFunctionBreakpointsResponse>('setFunctionBreakpoints', { breakpoints });
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
   * Ends the session: disconnect with terminateDebuggee (Delve kills the program, stopped at a
   * breakpoint or not, and dlv exits). Resolves when Delve has closed the connection.
   */
  async shutdown(timeoutMs = 5000): Promise<void> {
    if (this.ended) return;
    const closed = new Promise<void>((done) => this.once('ended', () => done()));
    await Promise.race([this.connection.request('disconnect', { terminateDebuggee: true }).catch(() => undefined), closed]);
    await Promise.race([closed, new Promise((r) => setTimeout(r, timeoutMs))]);
    this.connection.dispose();
  }

  /** Lets a program stopped in Delve run on and forgets every breakpoint (so it can stop by itself). */
  async release(): Promise<void> {
    if (this.ended) return;
    // Breakpoints by file are replaced with nothing; Delve answers for the files it knows.
    for (const path of this.breakpointFiles) await this.request('setBreakpoints', { source: { path }, breakpoints: [] }).catch(() => undefined);
    if (this.functionBreakpoints) await this.setFunctionBreakpoints([]).catch(() => undefined);
    await this.request('continue', { threadId: 1 }).catch(() => undefined);
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
        // The program is gone; a headless dlv without --accept-multiclient exits once its client hangs up.
        void this.shutdown();
        return;
      default:
        this.emit('event', e);
    }
  }
}
