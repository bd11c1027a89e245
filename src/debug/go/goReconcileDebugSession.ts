import { BreakpointEvent, ContinuedEvent, Event, OutputEvent, StoppedEvent } from '@vscode/debugadapter';
import { basename } from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { withoutDelveLines } from './delveBanner.ts';
import { findDelve } from './delveBinary.ts';
import {
  ATTACH_GO_EVENT,
  GO_DEBUGGER_UNAVAILABLE_REQUEST,
  GO_STEP_INTO_EVENT,
  GO_STEP_INTO_PLACED_REQUEST,
  GO_STEPPED_IN_REQUEST,
  goroutineCondition,
  type GoDebuggerChoice,
  type GoDebuggerHandOver,
  type GoStepInto,
} from './goChildSession.ts';
import type { GoProgramOverrides } from '../goLaunch.ts';
import { GoLineDebugging, isGoSource } from './goLineDebugging.ts';
import type { WriteStep } from './stepFromWrite.ts';
import { ReconcileDebugSession, type ControllerLabLaunchArguments } from '../reconcileDebugSession.ts';
import type { StopState } from '../reconcileRuntime.ts';
import type { ReconcileRecord } from '../../runtime/index.ts';
import { isWhyCommand } from '../whyCommand.ts';

// The reconcile debugger with Go line debugging through Delve in the same DAP session: with
// `"lineBreakpoints": true`, a Go controller is built for Delve and run under `dlv dap`;
// breakpoints in `.go` files, the goroutine Delve stops in, its stack, variables, evaluate and
// stepping are Delve's (GoLineDebugging), everything else stays the reconcile debugger's.

export interface GoLaunchArguments extends ControllerLabLaunchArguments {
  /** `go build` flags, as one string (`-tags=e2e`) or a list (Delve's are added). */
  buildFlags?: string | string[];
  /** Run the Go program under Delve so line breakpoints in .go files hit. */
  lineBreakpoints?: boolean;
  /** The dlv to use (default: the PATH, then $(go env GOBIN) / $(go env GOPATH)/bin). */
  dlvPath?: string;
  /**
   * Who drives Delve: "controller-lab" (this session, the default) or "vscode-go" (VS Code's Go
   * extension, as a child session the editor starts on ATTACH_GO_EVENT; implies lineBreakpoints).
   */
  goDebugger?: GoDebuggerChoice;
}

export class GoReconcileDebugSession extends ReconcileDebugSession {
  private readonly go = new GoLineDebugging();

  constructor() {
    super();
    this.go.on('stopped', (body) => {
      // The scenario waits while the program is stopped in Delve, as it does at a reconcile stop.
      this.runtime.scenarioClock.pause();
      const event = new StoppedEvent(body.reason, body.threadId, body.text) as DebugProtocol.StoppedEvent;
      event.body = { ...body, description: body.description ?? `Paused in Go (${body.reason})` };
      // The editor marks the thread running when a step's answer arrives: the stop goes after it.
      void this.stepAnswered.then(() => this.sendEvent(event));
    });
    this.go.on('continued', (body) => {
      if (!this.runtime.current) this.runtime.scenarioClock.resume();
      this.sendEvent(new ContinuedEvent(body.threadId, body.allThreadsContinued));
    });
    this.go.on('breakpoint', (body) => this.sendEvent(new BreakpointEvent(body.reason, body.breakpoint)));
    this.go.on('output', ({ category, text }) => {
      const shown = category === 'console' ? withoutDelveLines(text) : text;
      if (shown) this.sendEvent(new OutputEvent(shown, category));
    });
    this.runtime.on('output', ({ text }) => this.go.noticeOutput(text));
    this.go.on('steppedIn', () => this.runtime.stepAfterLineStop());
    // Leaving a stop at a held write (continue, step, …) lets its write go on: Delve runs again too.
    this.runtime.on('continued', () => {
      if (this.go.atWrite) void this.go.resumeAfterWrite();
    });
  }

  /** Under Delve, its lines are not the program's output. */
  protected override programOutput(text: string): string {
    return this.go.underDelve ? withoutDelveLines(text) : text;
  }

  /**
   * A data breakpoint stop whose write waits in its client call: under Delve the program pauses
   * there and the stop is the writing goroutine's, its stack from the client call down.
   */
  protected override onStopped(s: StopState): void {
    const held = s.heldWrite;
    if (!held || !this.go.active) return super.onStopped(s);
    this.forgetVariables();
    const body: DebugProtocol.StoppedEvent['body'] = { reason: s.reason, description: s.description, hitBreakpointIds: s.breakpointId === undefined ? undefined : [s.breakpointId] };
    void this.go.pauseForWrite(held.goroutine, body, held.write.caller).then((paused) => {
      if (!paused && this.runtime.current === s) super.onStopped(s);
    });
  }
  /** Breakpoints arrive before the build starts: they know at once whether Delve will place them. */
  protected override async launchRequest(response: DebugProtocol.LaunchResponse, args: GoLaunchArguments): Promise<void> {
    // A replay may kill and restart the program; Delve's session would not follow it.
    if (args.checkPlan !== undefined && (args.lineBreakpoints || args.goDebugger === 'vscode-go')) {
      return this.sendErrorResponse(response, 1003, 'A check finding replays without line breakpoints: remove "lineBreakpoints" / "goDebugger" from the launch configuration.');
    }
    if (args.lineBreakpoints || args.goDebugger === 'vscode-go') this.go.expect();
    await super.launchRequest(response, args);
  }

  /** With lineBreakpoints, the Go program is built for Delve and started under dlv (see GoLineDebugging.prepare). */
  protected override async goProgramOverrides(args: GoLaunchArguments): Promise<GoProgramOverrides> {
    const viaGoExtension = args.goDebugger === 'vscode-go';
    if (!args.lineBreakpoints && !viaGoExtension) return {};
    const dlvPath = findDelve({ explicit: args.dlvPath });
    const userFlags = typeof args.buildFlags === 'string' ? args.buildFlags.split(/\s+/).filter(Boolean) : (args.buildFlags ?? []);
    if (!viaGoExtension) return this.go.prepare(dlvPath, userFlags);
    return this.go.prepare(dlvPath, userFlags, (port) => {
      const handOver: GoDebuggerHandOver = { host: '127.0.0.1', port, name: `${basename(args.program ?? 'program')} (Go)`, cwd: args.cwd };
      this.sendEvent(new Event(ATTACH_GO_EVENT, handOver));
    });
  }

  /**
   * The editor's side of the Go extension's session: it stopped on a Step Into's breakpoint
   * (goSteppedIn), placed that breakpoint or not (goStepIntoPlaced), or could not start at all
   * (goDebuggerUnavailable: this session attaches to Delve itself).
   */
  protected override customRequest(command: string, response: DebugProtocol.Response, args: unknown): void {
    if (command === GO_STEPPED_IN_REQUEST) {
      this.sendResponse(response);
      this.runtime.stepAfterLineStop();
      return;
    }
    if (command === GO_STEP_INTO_PLACED_REQUEST) {
      this.sendResponse(response);
      this.stepIntoPlaced?.((args as { placed?: unknown } | undefined)?.placed === true);
      return;
    }
    if (command !== GO_DEBUGGER_UNAVAILABLE_REQUEST) return super.customRequest(command, response, args);
    const reason = (args as { reason?: unknown } | undefined)?.reason;
    this.sendEvent(new OutputEvent(`The Go extension's debugger ${typeof reason === 'string' ? reason : 'could not be started'}; Go line breakpoints go through Controller Lab's own Delve connection.\n`, 'console'));
    this.sendResponse(response);
    void this.go.takeBack();
  }

  /** A program stopped in Delve cannot read Controller Lab's shutdown: let it run, then end Delve. */
  protected override async disconnectRequest(response: DebugProtocol.DisconnectResponse): Promise<void> {
    await this.go.release();
    await super.disconnectRequest(response);
    await this.go.shutdown();
  }

  protected override async terminateRequest(response: DebugProtocol.TerminateResponse): Promise<void> {
    await this.go.release();
    await super.terminateRequest(response);
    await this.go.shutdown();
  }

  protected override async setBreakPointsRequest(response: DebugProtocol.SetBreakpointsResponse, args: DebugProtocol.SetBreakpointsArguments): Promise<void> {
    if (!isGoSource(args.source.path)) return super.setBreakPointsRequest(response, args);
    await this.answer(response, async () => ({ breakpoints: await this.go.setBreakpoints(args) }));
  }

  /** The reconcile debugger's threads (its workers), and the goroutine Delve stopped in after them. */
  public override sendResponse(response: DebugProtocol.Response): void {
    if (response.command === 'threads' && response.success) {
      const body = response.body as DebugProtocol.ThreadsResponse['body'] | undefined;
      if (body) body.threads = [...body.threads, ...this.go.threads()];
    }
    super.sendResponse(response);
  }

  protected override async stackTraceRequest(response: DebugProtocol.StackTraceResponse, args: DebugProtocol.StackTraceArguments): Promise<void> {
    if (!this.go.ownsThread(args.threadId)) return super.stackTraceRequest(response, args);
    await this.answer(response, () => this.go.stackTrace(args));
  }

  /** At a held write, the writer's frames show the Data Breakpoint scope (before and after) above Delve's. */
  protected override async scopesRequest(response: DebugProtocol.ScopesResponse, args: DebugProtocol.ScopesArguments): Promise<void> {
    if (!this.go.ownsId(args.frameId)) return super.scopesRequest(response, args);
    const stop = this.runtime.current;
    const data = this.go.atWrite && stop?.heldWrite ? this.reconcileScope(stop.record, 'Data Breakpoint') : undefined;
    await this.answer(response, async () => ({ scopes: [...(data ? [data] : []), ...(await this.go.scopes(args.frameId))] }));
  }

  protected override async variablesRequest(response: DebugProtocol.VariablesResponse, args: DebugProtocol.VariablesArguments): Promise<void> {
    if (!this.go.ownsId(args.variablesReference)) return super.variablesRequest(response, args);
    await this.answer(response, async () => ({ variables: await this.go.variables(args) }));
  }

  /** In Go code stopped by Delve, `why` is about the reconcile running on that goroutine. */
  protected override evaluatedRecord(frameId: number | undefined): ReconcileRecord | undefined {
    if (frameId === undefined || !this.go.ownsId(frameId)) return super.evaluatedRecord(frameId);
    const goroutine = this.go.stoppedIn;
    const running = this.runtime.inFlight();
    return running.find((r) => r.goroutine !== undefined && r.goroutine === goroutine) ?? (running.length === 1 ? running[0] : undefined);
  }

  protected override async evaluateRequest(response: DebugProtocol.EvaluateResponse, args: DebugProtocol.EvaluateArguments): Promise<void> {
    if (args.frameId === undefined || !this.go.ownsId(args.frameId) || isWhyCommand(args.expression)) return super.evaluateRequest(response, args);
    await this.answer(response, () => this.go.evaluate(args));
  }

  protected override async continueRequest(response: DebugProtocol.ContinueResponse, args?: DebugProtocol.ContinueArguments): Promise<void> {
    // The base class's override takes no arguments; DAP always sends them. At a held write the
    // stop is the reconcile runtime's: leaving it resumes Delve too.
    if (!args || !this.go.ownsThread(args.threadId) || this.go.atWrite) return super.continueRequest(response);
    await this.goStep(response, 'continue', args.threadId);
  }

  protected override async nextRequest(response: DebugProtocol.NextResponse, args?: DebugProtocol.NextArguments): Promise<void> {
    if (args && this.go.ownsThread(args.threadId) && this.go.atWrite) return this.stepFromWrite(response, 'next');
    if (!args || !this.go.ownsThread(args.threadId)) return super.nextRequest(response);
    await this.goStep(response, 'next', args.threadId);
  }

  /**
   * On a goroutine thread: Delve's step in. At a held Go reconcile: into the controller's
   * Reconcile function under Delve (a one-shot breakpoint there, then the reconcile runs);
   * without Delve it says how to get that, once, and steps over.
   */
  protected override async stepInRequest(response: DebugProtocol.StepInResponse, args?: DebugProtocol.StepInArguments): Promise<void> {
    if (args && this.go.ownsThread(args.threadId) && this.go.atWrite) return this.stepFromWrite(response, 'stepIn');
    if (args && this.go.ownsThread(args.threadId)) return this.goStep(response, 'stepIn', args.threadId);
    const stop = this.runtime.current;
    if (!stop?.live || !this.runtime.isGo) return super.stepInRequest(response);
    const reconciler = this.runtime.controllerShape(stop.record.controller)?.reconciler;
    let entered = false;
    if (this.go.handedOverToOther && reconciler) {
      entered = await this.editorStepsInto({ function: reconciler.function, condition: goroutineCondition(stop.record.goroutine) });
      if (!entered) this.sendEvent(new OutputEvent(`Step Into: the Go extension's session could not stop in ${reconciler.function}; stepping over this reconcile.\n`, 'console'));
    } else if (!this.go.active && !this.go.handedOverToOther) {
      this.adviseOnce('Step Into enters the Go code of Reconcile only under Delve: set "lineBreakpoints": true in the launch configuration. Stepping over this reconcile.');
    } else if (!reconciler) {
      this.adviseOnce(`Step Into: controller ${stop.record.controller} did not say which function is its Reconcile (an older controllerlab module?). Stepping over this reconcile.`);
    } else {
      entered = await this.go.stepIntoReconcile(reconciler.function, stop.record.goroutine);
      if (!entered) this.sendEvent(new OutputEvent(`Step Into: Delve could not stop in ${reconciler.function}; stepping over this reconcile.\n`, 'console'));
    }
    this.sendResponse(response);
    if (entered) this.runtime.stepIntoLineDebugger();
    else this.runtime.next();
  }

  /**
   * A step at a held write: the write goes on and the writer stops back in the controller's code
   * (see stepFromWrite.ts); the reconcile debugger runs on as after Continue. When the way back is
   * not known, the step runs the reconcile on and stops at the next reconcile, and says so once.
   */
  private async stepFromWrite(response: DebugProtocol.Response, step: WriteStep): Promise<void> {
    if (await this.go.prepareStepFromWrite(step)) {
      this.sendResponse(response);
      this.runtime.continue();
      return;
    }
    this.adviseOnce('At this data breakpoint the way back to the controller\'s code is not known: the step lets the reconcile run on and stops at the next reconcile; set a line breakpoint after the client call to stop there.');
    super.nextRequest(response);
  }

  private stepIntoPlaced: ((placed: boolean) => void) | undefined;

  /** Asks the editor to put the one-shot breakpoint in the Go extension's session; false after 10 s without an answer. */
  private editorStepsInto(body: GoStepInto): Promise<boolean> {
    this.stepIntoPlaced?.(false);
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => done(false), 10_000);
      const done = (placed: boolean) => {
        clearTimeout(timer);
        if (this.stepIntoPlaced === done) this.stepIntoPlaced = undefined;
        resolve(placed);
      };
      this.stepIntoPlaced = done;
      this.sendEvent(new Event(GO_STEP_INTO_EVENT, body));
    });
  }

  private readonly advised = new Set<string>();

  private adviseOnce(text: string): void {
    if (this.advised.has(text)) return;
    this.advised.add(text);
    this.sendEvent(new OutputEvent(`${text}\n`, 'console'));
  }

  protected override async stepOutRequest(response: DebugProtocol.StepOutResponse, args?: DebugProtocol.StepOutArguments): Promise<void> {
    if (args && this.go.ownsThread(args.threadId) && this.go.atWrite) return this.stepFromWrite(response, 'stepOut');
    if (!args || !this.go.ownsThread(args.threadId)) return super.stepOutRequest(response);
    await this.goStep(response, 'stepOut', args.threadId);
  }

  /** Settles once the Go step in flight, if any, has been answered. */
  private stepAnswered: Promise<void> = Promise.resolve();

  /** A step of a goroutine by Delve: its answer is sent before the stop that ends it. */
  private async goStep(response: DebugProtocol.Response, command: 'continue' | 'next' | 'stepIn' | 'stepOut', threadId: number): Promise<void> {
    let answered = () => {};
    this.stepAnswered = new Promise<void>((resolve) => (answered = resolve));
    try {
      await this.answer(response, async () => {
        await this.go.step(command, threadId);
        return command === 'continue' ? { allThreadsContinued: true } : undefined;
      });
    } finally {
      answered();
    }
  }

  /** Sends Delve's answer, or its error as this request's error (the client shows it). */
  private async answer<R extends DebugProtocol.Response>(response: R, work: () => Promise<R['body'] | void>): Promise<void> {
    try {
      const body = await work();
      if (body) response.body = body;
      this.sendResponse(response);
    } catch (err) {
      this.sendErrorResponse(response, { id: 3001, format: (err as Error).message, showUser: false });
    }
  }
}
