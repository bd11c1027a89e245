import type { DebugProtocol } from '@vscode/debugprotocol';
import { TypedEmitter } from '../../runtime/index.ts';
import { goroutineCondition } from './goChildSession.ts';
import { returnTarget, type WriteStep } from './stepFromWrite.ts';
import type { GoProgramOverrides } from '../goLaunch.ts';
import { DELVE_BUILD_FLAGS, DelveDebugger, delveExecCommand, freeLoopbackPort, type DelveBreakpointSpec } from './delveDebugger.ts';
import { holdFrameCount, writerFrames } from './writerFrames.ts';
import type { CallSite } from '../../runtime/index.ts';

// Go line debugging inside the reconcile debugger's own DAP session (the standalone adapter, or
// any client without VS Code's Go extension): breakpoints in `.go` files go to Delve, Delve's
// stops come back as stops of a "goroutine" thread next to the worker threads, and the stack,
// scopes, variables, evaluate and stepping of that thread are Delve's, passed through. Delve's
// ids are moved into ranges of their own so they never meet the reconcile debugger's ids.

/** Goroutine n is thread GO_THREAD_BASE + n (workers are threads 1…workers). */
export const GO_THREAD_BASE = 1_000_000;
/** Delve's frame ids and variable references, offset (the reconcile debugger's are small). */
export const GO_ID_BASE = 1 << 30;
/** Breakpoint ids handed out for Go line breakpoints (function breakpoints count from 1). */
export const GO_BREAKPOINT_BASE = 1_000_000;

export interface GoLineDebuggingEvents extends Record<string, unknown> {
  stopped: DebugProtocol.StoppedEvent['body'];
  continued: DebugProtocol.ContinuedEvent['body'];
  breakpoint: DebugProtocol.BreakpointEvent['body'];
  output: { category: string; text: string };
  /** A Step Into's one-shot breakpoint hit: the program is in Reconcile (the stop follows). */
  steppedIn: Record<string, never>;
}

interface FileBreakpoints {
  specs: DelveBreakpointSpec[];
  /** Our ids, in the order of specs. */
  ids: number[];
}

export function isGoSource(path: string | undefined): boolean {
  return typeof path === 'string' && path.endsWith('.go');
}

export class GoLineDebugging extends TypedEmitter<GoLineDebuggingEvents> {
  private delve: DelveDebugger | undefined;
  private readonly files = new Map<string, FileBreakpoints>();
  /** Delve's breakpoint id → ours. */
  private readonly fromDelveId = new Map<number, number>();
  private nextId = GO_BREAKPOINT_BASE + 1;
  private stoppedGoroutine: number | undefined;
  private enabled = false;
  private port: number | undefined;
  private handOver: (() => void) | undefined;
  private handedOver = false;
  private recentOutput = '';
  /** Delve's id of the one-shot breakpoint a Step Into placed on Reconcile, until it hits. */
  private stepIntoBreakpoint: number | undefined;
  /** The stop a pause for a held write shows, until Delve has paused. */
  private pausingForWrite: DebugProtocol.StoppedEvent['body'] | undefined;
  /** The goroutine stopped in a client call (its stack starts at the call), and the controller's line that made it. */
  private writer: number | undefined;
  private writerCall: CallSite | undefined;
  /** A step from a held write, until its return breakpoint (Delve's id) hits (see stepFromWrite.ts). */
  private returning: { goroutine: number; breakpointId: number; then?: 'next' | 'stepIn' } | undefined;

  /** The launch asked for Delve: breakpoints set before the program is built wait for it, and say so. */
  expect(): void {
    if (this.enabled) return;
    this.enabled = true;
    // Breakpoints answered before the launch arrived said Delve was off: say what they wait for now.
    for (const [, file] of this.files) {
      file.specs.forEach((s, i) => this.emit('breakpoint', { reason: 'changed', breakpoint: { id: file.ids[i], verified: false, line: s.line, message: this.pendingMessage() } }));
    }
  }

  private pendingMessage(): string {
    if (this.handedOver) return "Handled by the Go extension's debug session";
    return this.enabled ? 'Building the Go program: placed once it runs under Delve' : 'Go line breakpoints need Delve: set "lineBreakpoints": true in the launch configuration';
  }

  /**
   * The build flags and start command for the Go program: `dlv exec --headless` on a free
   * loopback port; once dlv runs, this attaches to it, places the breakpoints set so far and
   * lets the program run. With `handOver`, another debugger (VS Code's Go extension) attaches
   * instead: handOver gets the port once dlv listens (see noticeOutput), and takeBack() attaches
   * here after all if that debugger cannot.
   */
  async prepare(dlvPath: string, userBuildFlags: string[] = [], handOver?: (port: number) => void): Promise<Required<GoProgramOverrides>> {
    this.expect();
    const port = await freeLoopbackPort();
    this.port = port;
    return {
      buildFlags: [...userBuildFlags, ...DELVE_BUILD_FLAGS],
      // Writes wait in their client call, so a data breakpoint can stop the program there; not
      // when another debugger drives Delve (this one could not pause it).
      env: handOver ? {} : { CONTROLLER_LAB_HOLD_WRITES: '1' },
      wrapCommand: (binary, args) => {
        if (handOver) this.handOver = () => handOver(port);
        else void this.attach(port);
        return delveExecCommand(dlvPath, port, binary, args);
      },
    };
  }

  /** The program's output, dlv's included: dlv says when it listens (vscode-go waits for the same line). */
  noticeOutput(text: string): void {
    if (!this.handOver || this.port === undefined) return;
    // The line may arrive in pieces.
    this.recentOutput = (this.recentOutput + text).slice(-512);
    if (!this.recentOutput.includes(`API server listening at: 127.0.0.1:${this.port}`)) return;
    const handOver = this.handOver;
    this.handOver = undefined;
    this.handedOver = true;
    handOver();
  }

  /** The Go program was started under dlv (its output then has dlv's lines in it). */
  get underDelve(): boolean {
    return this.port !== undefined;
  }

  /** The Go program's Delve went to another debugger. */
  get handedOverToOther(): boolean {
    return this.handedOver;
  }

  /** The other debugger could not attach: this one does (the built-in path). */
  async takeBack(): Promise<void> {
    if (this.port === undefined || this.delve) return;
    this.handOver = undefined;
    this.handedOver = false;
    await this.attach(this.port);
  }

  /** Lets a program stopped in Delve run on without breakpoints (so it can stop by itself). */
  async release(): Promise<void> {
    this.stoppedGoroutine = undefined;
    this.writer = undefined;
    // A step from a held write still on its way back would stop the program with nobody to see it.
    if (this.returning && this.delve?.running) await this.clearReturnBreakpoint(this.delve);
    this.returning = undefined;
    await this.delve?.release();
  }

  /** Ends the Delve session: the program (if still there) and dlv end with it. */
  async shutdown(): Promise<void> {
    this.stoppedGoroutine = undefined;
    await this.delve?.shutdown();
  }

  /** The goroutine Delve stopped in, while it is stopped. */
  get stoppedIn(): number | undefined {
    return this.stoppedGoroutine;
  }

  get active(): boolean {
    return this.delve?.running === true;
  }

  /** Answers setBreakpoints for a Go source; before Delve runs, the breakpoints wait for it. */
  async setBreakpoints(args: DebugProtocol.SetBreakpointsArguments): Promise<DebugProtocol.Breakpoint[]> {
    const path = args.source.path ?? '';
    const specs: DelveBreakpointSpec[] = (args.breakpoints ?? []).map((b) => ({ line: b.line, condition: b.condition, hitCondition: b.hitCondition, logMessage: b.logMessage }));
    const file: FileBreakpoints = { specs, ids: specs.map(() => this.nextId++) };
    this.files.set(path, file);
    if (this.delve?.running) return this.place(path, file);
    const message = this.pendingMessage();
    return specs.map((s, i) => ({ id: file.ids[i], verified: false, line: s.line, message }));
  }

  ownsThread(threadId: number): boolean {
    return threadId > GO_THREAD_BASE;
  }

  ownsId(id: number): boolean {
    return id > GO_ID_BASE;
  }

  /** The goroutine Delve stopped in, as a thread next to the workers. */
  threads(): DebugProtocol.Thread[] {
    if (this.stoppedGoroutine === undefined) return [];
    return [{ id: GO_THREAD_BASE + this.stoppedGoroutine, name: `goroutine ${this.stoppedGoroutine} (Go)` }];
  }

  async stackTrace(args: DebugProtocol.StackTraceArguments): Promise<DebugProtocol.StackTraceResponse['body']> {
    const goroutine = args.threadId - GO_THREAD_BASE;
    if (goroutine === this.writer) return this.writerStackTrace(goroutine, args);
    const body = (await this.require().request<DebugProtocol.StackTraceResponse>('stackTrace', { ...args, threadId: goroutine })).body;
    return { ...body, stackFrames: body.stackFrames.map((f) => ({ ...f, id: GO_ID_BASE + f.id })) };
  }

  /** The writer's stack from the client call down (see writerFrames): pages are counted from there. */
  private async writerStackTrace(goroutine: number, args: DebugProtocol.StackTraceArguments): Promise<DebugProtocol.StackTraceResponse['body']> {
    const start = args.startFrame ?? 0;
    const levels = args.levels || 50;
    // The hold's frames are a handful: fetch enough to drop them and still fill the page.
    const body = (await this.require().request<DebugProtocol.StackTraceResponse>('stackTrace', { threadId: goroutine, startFrame: 0, levels: start + levels + 16 })).body;
    const dropped = holdFrameCount(body.stackFrames);
    const frames = writerFrames(body.stackFrames, this.writerCall).slice(start, start + levels);
    return { stackFrames: frames.map((f) => ({ ...f, id: GO_ID_BASE + f.id })), totalFrames: body.totalFrames === undefined ? undefined : body.totalFrames - dropped };
  }

  /**
   * Pauses the program for a write held in its client call: once Delve has paused, `stop` is
   * shown as the stop of the writing goroutine. False when Delve does not run.
   */
  async pauseForWrite(goroutine: number, stop: DebugProtocol.StoppedEvent['body'], call?: CallSite): Promise<boolean> {
    if (!this.delve?.running) return false;
    this.writer = goroutine;
    this.writerCall = call;
    const body = { ...stop, threadId: GO_THREAD_BASE + goroutine, allThreadsStopped: true };
    if (this.stoppedGoroutine !== undefined) {
      // Paused already (a line breakpoint): the writer is shown as it is.
      this.stoppedGoroutine = goroutine;
      this.emit('stopped', body);
      return true;
    }
    this.pausingForWrite = body;
    try {
      await this.delve.request('pause', { threadId: goroutine });
      return true;
    } catch {
      this.pausingForWrite = undefined;
      this.writer = undefined;
      return false;
    }
  }

  /** Lets a program paused for a held write run on (the write goes on once the parent says so). */
  async resumeAfterWrite(): Promise<void> {
    const goroutine = this.writer;
    this.writer = undefined;
    if (goroutine === undefined || this.stoppedGoroutine === undefined) return;
    await this.step('continue', GO_THREAD_BASE + goroutine).catch(() => undefined);
  }

  /**
   * Prepares a step from a held write (see stepFromWrite.ts): places the return breakpoint for the
   * writer's goroutine. False when it cannot; the caller then steps as a reconcile stop would.
   * The program runs on once the caller leaves the stop (resumeAfterWrite).
   */
  async prepareStepFromWrite(step: WriteStep): Promise<boolean> {
    const goroutine = this.writer;
    if (goroutine === undefined || !this.delve?.running) return false;
    const delve = this.delve;
    try {
      const frames = (await delve.request<DebugProtocol.StackTraceResponse>('stackTrace', { threadId: goroutine, startFrame: 0, levels: 64 })).body.stackFrames;
      const target = returnTarget(frames, this.writerCall, step);
      if (!target) return false;
      const placed = await delve.request<DebugProtocol.SetInstructionBreakpointsResponse>('setInstructionBreakpoints', {
        breakpoints: [{ instructionReference: target.address, condition: goroutineCondition(goroutine) }],
      });
      const bp = placed.body.breakpoints[0];
      if (!bp?.verified || bp.id === undefined) {
        await this.clearReturnBreakpoint(delve);
        return false;
      }
      this.returning = { goroutine, breakpointId: bp.id, then: target.then };
      return true;
    } catch {
      return false;
    }
  }

  /** The program is paused at a held write. */
  get atWrite(): boolean {
    return this.writer !== undefined;
  }

  async scopes(frameId: number): Promise<DebugProtocol.Scope[]> {
    const body = (await this.require().request<DebugProtocol.ScopesResponse>('scopes', { frameId: frameId - GO_ID_BASE })).body;
    return body.scopes.map((s) => ({ ...s, variablesReference: toOurs(s.variablesReference) }));
  }

  async variables(args: DebugProtocol.VariablesArguments): Promise<DebugProtocol.Variable[]> {
    const body = (await this.require().request<DebugProtocol.VariablesResponse>('variables', { ...args, variablesReference: args.variablesReference - GO_ID_BASE })).body;
    return body.variables.map((v) => ({ ...v, variablesReference: toOurs(v.variablesReference) }));
  }

  async evaluate(args: DebugProtocol.EvaluateArguments): Promise<DebugProtocol.EvaluateResponse['body']> {
    const frameId = args.frameId === undefined ? undefined : args.frameId - GO_ID_BASE;
    const body = (await this.require().request<DebugProtocol.EvaluateResponse>('evaluate', { ...args, frameId })).body;
    return { ...body, variablesReference: toOurs(body.variablesReference) };
  }

  /**
   * Step Into a held reconcile: a one-shot Delve breakpoint on the controller's Reconcile
   * function (`main.(*mirrorReconciler).Reconcile`), for that reconcile's goroutine only when it
   * is known (another worker may enter Reconcile first). Resolves false when Delve cannot place
   * it; the caller then steps over.
   */
  async stepIntoReconcile(goFunction: string, goroutine?: number): Promise<boolean> {
    if (!this.delve?.running) return false;
    const condition = goroutineCondition(goroutine);
    const placed = await this.delve.setFunctionBreakpoints([{ name: goFunction, condition }]).catch(() => []);
    const bp = placed[0];
    if (!bp?.verified || bp.id === undefined) {
      await this.delve.setFunctionBreakpoints([]).catch(() => undefined);
      return false;
    }
    this.stepIntoBreakpoint = bp.id;
    return true;
  }

  /** continue / next / stepIn / stepOut of a goroutine thread, done by Delve. */
  async step(command: 'continue' | 'next' | 'stepIn' | 'stepOut', threadId: number): Promise<void> {
    const delve = this.require();
    this.stoppedGoroutine = undefined;
    this.writer = undefined;
    // Before the request: a short step's stop can come before Delve's answer, and must stay last.
    this.emit('continued', { threadId, allThreadsContinued: true });
    await delve.request(command, { threadId: threadId - GO_THREAD_BASE });
  }

  private require(): DelveDebugger {
    if (!this.delve?.running) throw new Error('the Go program is not running under Delve');
    return this.delve;
  }

  private async attach(port: number): Promise<void> {
    let delve: DelveDebugger;
    try {
      delve = await DelveDebugger.attach({ port });
    } catch (err) {
      this.emit('output', { category: 'stderr', text: `Go line breakpoints are off: ${(err as Error).message}\n` });
      return;
    }
    this.delve = delve;
    delve.on('stopped', (body) => {
      const forWrite = this.pausingForWrite;
      if (forWrite && body.reason === 'pause') {
        this.pausingForWrite = undefined;
        this.stoppedGoroutine = this.writer;
        this.emit('stopped', forWrite);
        return;
      }
      this.stoppedGoroutine = body.threadId;
      const threadId = body.threadId === undefined ? undefined : GO_THREAD_BASE + body.threadId;
      const returning = this.returning;
      if (returning) {
        // Its return breakpoint, or a stop that ends the step first (as a breakpoint ends Delve's own steps).
        this.returning = undefined;
        const back = body.threadId === returning.goroutine && body.hitBreakpointIds?.includes(returning.breakpointId);
        if (back) return void this.arrivedBack(delve, returning.goroutine, returning.then);
        void this.clearReturnBreakpoint(delve);
      }
      const oneShot = this.stepIntoBreakpoint;
      if (oneShot !== undefined && (body.hitBreakpointIds?.includes(oneShot) || body.reason === 'function breakpoint')) {
        // Step Into arrived in Reconcile: the breakpoint goes before the user sees the stop.
        this.stepIntoBreakpoint = undefined;
        this.emit('steppedIn', {});
        void delve
          .setFunctionBreakpoints([])
          .catch(() => undefined)
          .then(() => this.emit('stopped', { reason: 'step', threadId, description: 'Stepped into Reconcile', allThreadsStopped: true }));
        return;
      }
      this.emit('stopped', {
        ...body,
        threadId,
        hitBreakpointIds: body.hitBreakpointIds?.map((id) => this.fromDelveId.get(id) ?? id + GO_BREAKPOINT_BASE),
        allThreadsStopped: true,
      });
    });
    delve.on('continued', (body) => {
      this.stoppedGoroutine = undefined;
      this.writer = undefined;
      this.emit('continued', { ...body, threadId: GO_THREAD_BASE + body.threadId });
    });
    delve.on('event', (e) => {
      if (e.event !== 'breakpoint') return;
      const body = (e as DebugProtocol.BreakpointEvent).body;
      const id = body.breakpoint.id === undefined ? undefined : this.fromDelveId.get(body.breakpoint.id);
      if (id !== undefined) this.emit('breakpoint', { ...body, breakpoint: { ...body.breakpoint, id } });
    });
    delve.on('output', (o) => this.emit('output', o));
    delve.on('ended', () => {
      this.stoppedGoroutine = undefined;
      this.returning = undefined;
    });
    try {
      for (const [path, file] of this.files) {
        for (const bp of await this.place(path, file)) this.emit('breakpoint', { reason: 'changed', breakpoint: bp });
      }
      await delve.configurationDone();
    } catch (err) {
      this.emit('output', { category: 'stderr', text: `Delve: ${(err as Error).message}\n` });
    }
  }

  /** A step from a held write is back in the controller's code: it goes on as Delve's step, or stops here. */
  private async arrivedBack(delve: DelveDebugger, goroutine: number, then: 'next' | 'stepIn' | undefined): Promise<void> {
    const threadId = GO_THREAD_BASE + goroutine;
    await this.clearReturnBreakpoint(delve);
    if (then) {
      try {
        // Delve's step stops (and says so) by itself.
        await delve.request(then, { threadId: goroutine });
        return;
      } catch {
        // Stop where it is.
      }
    }
    this.emit('stopped', { reason: 'step', threadId, allThreadsStopped: true });
  }

  private async clearReturnBreakpoint(delve: DelveDebugger): Promise<void> {
    await delve.request('setInstructionBreakpoints', { breakpoints: [] }).catch(() => undefined);
  }

  private async place(path: string, file: FileBreakpoints): Promise<DebugProtocol.Breakpoint[]> {
    const placed = await this.require().setBreakpoints(path, file.specs);
    return placed.map((bp, i) => {
      const id = file.ids[i] ?? this.nextId++;
      if (bp.id !== undefined) this.fromDelveId.set(bp.id, id);
      return { ...bp, id };
    });
  }
}

function toOurs(reference: number): number {
  return reference > 0 ? GO_ID_BASE + reference : 0;
}
