import {
  Handles,
  InitializedEvent,
  LoggingDebugSession,
  OutputEvent,
  Scope,
  Source,
  StackFrame,
  StoppedEvent,
  ContinuedEvent,
  TerminatedEvent,
  ExitedEvent,
  Thread,
  Event,
  BreakpointEvent,
} from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { basename, isAbsolute, join } from 'node:path';
import { formatWhy, programName, type ReconcileRecord, type WhyTarget } from '../runtime/index.ts';
import { frameName, PrintedError, type DebugLaunchOptions, type ReconcileRuntime, type StopState } from './reconcileRuntime.ts';
import { productionRuntime } from './productionRuntime.ts';
import { childOrigin, childrenOf, objectOrigin, toVariable, type Expandable } from './variables.ts';
import { dataBreakpointText, isDataBreakpointText } from './data/dataBreakpoints.ts';
import { evaluateInStop } from './evaluate.ts';
import { parseWhyCommand } from './whyCommand.ts';
import { buildErrorLocations } from './buildErrorLocations.ts';
import { RECONCILE_SCOPES } from './reconcileScopes.ts';
import type { GoProgramOverrides } from './goLaunch.ts';

// DAP ↔ reconcile runtime (vscode-mock-debug's session layer): workers are threads, a reconcile is
// a stack frame, its request/object/trigger/queue/writes/result are scopes, and `next`, `stepBack`,
// `reverseContinue`, `pause` and `continue` move between reconciles rather than lines.

export interface ControllerLabLaunchArguments extends DebugProtocol.LaunchRequestArguments, DebugLaunchOptions {}

/** Custom event: the controller host's inspector is listening; the client may attach a JS debugger. */
export const ATTACH_JS_EVENT = 'controllerLab.attachJsDebugger';
/** Custom request: the client could not start the JavaScript debugger; the host should not wait for it. */
export const JS_DEBUGGER_UNAVAILABLE_REQUEST = 'controllerLab.jsDebuggerUnavailable';
/**
 * Custom request: "why (not)?" for an object ({ kind, key, resourceVersion? }): the answer
 * (WhyAnswer) and its text, as `why` in the Debug Console prints it.
 */
export const WHY_REQUEST = 'controllerLab.why';

export class ReconcileDebugSession extends LoggingDebugSession {
  protected readonly runtime: ReconcileRuntime;
  private readonly handles = new Handles<Expandable>();
  private configurationDone!: Promise<void>;
  private markConfigured!: () => void;

  constructor(runtime: ReconcileRuntime = productionRuntime()) {
    super();
    this.runtime = runtime;
    this.setDebuggerLinesStartAt1(true);
    this.setDebuggerColumnsStartAt1(true);
    this.configurationDone = new Promise((r) => (this.markConfigured = r));
    this.runtime.on('stopped', (s) => this.onStopped(s));
    this.runtime.on('continued', () => this.sendEvent(new ContinuedEvent(1, true)));
    this.runtime.on('breakpointChanged', (bp) => this.sendEvent(new BreakpointEvent('changed', { id: bp.id, verified: bp.verified, message: bp.message } as DebugProtocol.Breakpoint)));
    this.runtime.on('output', ({ category, text }) => {
      const shown = category === 'stdout' || category === 'stderr' ? this.programOutput(text) : text;
      if (shown) this.sendEvent(new OutputEvent(shown, category));
    });
    this.runtime.on('inspector', ({ port, url }) => this.sendEvent(new Event(ATTACH_JS_EVENT, { port, url, name: `${this.runtime.controllerName} (JavaScript)` })));
    this.runtime.on('ended', ({ exitCode }) => {
      this.sendEvent(new ExitedEvent(exitCode));
      this.sendEvent(new TerminatedEvent());
    });
  }

  /** What of the controller's own output the Debug Console shows (a subclass may leave out a wrapper's lines). */
  protected programOutput(text: string): string {
    return text;
  }

  protected override initializeRequest(response: DebugProtocol.InitializeResponse): void {
    response.body = {
      supportsConfigurationDoneRequest: true,
      supportsFunctionBreakpoints: true,
      supportsConditionalBreakpoints: true,
      supportsHitConditionalBreakpoints: true,
      supportsLogPoints: true,
      supportsStepBack: true,
      supportsDataBreakpoints: true,
      supportsEvaluateForHovers: true,
      supportsExceptionInfoRequest: true,
      supportsTerminateRequest: true,
      supportsSingleThreadExecutionRequests: false,
      exceptionBreakpointFilters: [
        { filter: 'reconcileErrors', label: 'Reconcile errors', description: 'Stop after a reconcile that threw or timed out', default: true },
      ],
    };
    this.sendResponse(response);
    this.sendEvent(new InitializedEvent());
  }

  protected override configurationDoneRequest(response: DebugProtocol.ConfigurationDoneResponse): void {
    this.markConfigured();
    this.sendResponse(response);
  }

  protected override async launchRequest(response: DebugProtocol.LaunchResponse, args: ControllerLabLaunchArguments): Promise<void> {
    // Breakpoints arrive between `initialized` and `configurationDone`; the first reconcile must see them.
    await Promise.race([this.configurationDone, new Promise((r) => setTimeout(r, 2000))]);
    if (!args.controller && !args.program) return this.sendErrorResponse(response, 1001, 'launch: `controller` (a TypeScript controller file) or `program` (a Go main package) is required');
    try {
      await this.runtime.launch(args, await this.goProgramOverrides(args));
      this.sendResponse(response);
    } catch (err) {
      const message = (err as Error).message;
      if (!(err instanceof PrintedError)) this.sendEvent(new OutputEvent(`${message}\n`, 'stderr'));
      const program = args.program ?? args.controller ?? '';
      const text = `Controller Lab could not start ${programName(args.cwd && !isAbsolute(program) ? join(args.cwd, program) : program)}: ${message}`;
      if (buildErrorLocations(message).length === 0) return this.sendErrorResponse(response, 1002, text);
      // A build error: the editor lists its lines as problems and offers to go to the first
      // (buildErrors.ts), not VS Code's own dialog, whose one action opens launch.json.
      this.sendErrorResponse(response, { id: 1002, format: text, showUser: false });
    }
  }

  /** How a Go program is built and started (a line debugger's flags and command); none here. */
  protected async goProgramOverrides(_args: ControllerLabLaunchArguments): Promise<GoProgramOverrides> {
    return {};
  }

  /** A function breakpoint with a field path after the name is a data breakpoint (`Deployment default/web .spec.replicas`). */
  protected override setFunctionBreakPointsRequest(response: DebugProtocol.SetFunctionBreakpointsResponse, args: DebugProtocol.SetFunctionBreakpointsArguments): void {
    const isData = args.breakpoints.map((b) => isDataBreakpointText(b.name));
    const reconcile = this.runtime.setBreakpoints(
      args.breakpoints
        .filter((_b, i) => !isData[i])
        .map((b) => ({ name: b.name, condition: b.condition, hitCondition: b.hitCondition, logMessage: (b as { logMessage?: string }).logMessage })),
    );
    const data = this.runtime.setDataBreakpoints(
      'function',
      args.breakpoints.filter((_b, i) => isData[i]).map((b) => ({ text: b.name, condition: b.condition, hitCondition: b.hitCondition })),
    );
    const bps = isData.map((d) => (d ? data.shift() : reconcile.shift()));
    response.body = { breakpoints: bps.map((b) => ({ id: b?.id, verified: b?.verified ?? false, message: b?.message })) };
    this.sendResponse(response);
  }

  /** A field of a Kubernetes object in the Variables view can be watched: its data id is the data breakpoint's text. */
  protected override dataBreakpointInfoRequest(response: DebugProtocol.DataBreakpointInfoResponse, args: DebugProtocol.DataBreakpointInfoArguments): void {
    const container = args.variablesReference !== undefined ? this.handles.get(args.variablesReference) : undefined;
    const origin = container ? childOrigin(container, args.name) : undefined;
    let dataId: string | null = null;
    if (origin && origin.path.length > 0) dataId = dataBreakpointText({ kind: origin.kind, metadata: { name: origin.name, namespace: origin.namespace } }, origin.path);
    else if (!container && isDataBreakpointText(args.name)) dataId = args.name;
    response.body = dataId
      ? { dataId, description: dataId, accessTypes: ['write'], canPersist: true }
      : { dataId: null, description: 'Only a field of a Kubernetes object (such as the Object scope) can be watched' };
    this.sendResponse(response);
  }

  protected override setDataBreakpointsRequest(response: DebugProtocol.SetDataBreakpointsResponse, args: DebugProtocol.SetDataBreakpointsArguments): void {
    const bps = this.runtime.setDataBreakpoints(
      'data',
      args.breakpoints.map((b) => ({ text: b.dataId, condition: b.condition, hitCondition: b.hitCondition })),
    );
    response.body = { breakpoints: bps.map((b) => ({ id: b.id, verified: b.verified, message: b.message })) };
    this.sendResponse(response);
  }

  /** Line breakpoints belong to the JavaScript debugger (attachJsDebugger); we only acknowledge them. */
  protected override setBreakPointsRequest(response: DebugProtocol.SetBreakpointsResponse, args: DebugProtocol.SetBreakpointsArguments): void {
    const message = 'Line breakpoints hit in the JavaScript debugger: set "attachJsDebugger": true. Reconcile breakpoints are function breakpoints (e.g. "Deployment default/web").';
    response.body = { breakpoints: (args.breakpoints ?? []).map((b) => ({ verified: false, line: b.line, message })) };
    this.sendResponse(response);
  }

  protected override setExceptionBreakPointsRequest(response: DebugProtocol.SetExceptionBreakpointsResponse, args: DebugProtocol.SetExceptionBreakpointsArguments): void {
    this.runtime.setExceptionFilters(args.filters);
    this.sendResponse(response);
  }

  protected override threadsRequest(response: DebugProtocol.ThreadsResponse): void {
    response.body = { threads: this.runtime.threads().map((t) => new Thread(t.id, t.name)) };
    this.sendResponse(response);
  }

  protected override stackTraceRequest(response: DebugProtocol.StackTraceResponse, args: DebugProtocol.StackTraceArguments): void {
    const stop = this.runtime.current;
    const records: ReconcileRecord[] = [];
    if (stop && this.runtime.threadOf(stop.record) === args.threadId) records.push(stop.record);
    for (const r of this.runtime.heldFor(args.threadId)) if (r !== stop?.record) records.push(r);
    const { path, line } = this.runtime.source;
    const source = path ? new Source(basename(path), this.convertDebuggerPathToClient(path)) : undefined;
    // A stop on a data breakpoint points at the client call that made the change, when known.
    const at = stop?.location && isAbsolute(stop.location.file) ? stop.location : undefined;
    const frames = records.map((r) => {
      const here = at && r === stop?.record ? { source: new Source(basename(at.file), this.convertDebuggerPathToClient(at.file)), line: at.line } : { source, line };
      const f = new StackFrame(r.seq, frameName(r), here.source, this.convertDebuggerLineToClient(here.line));
      if (stop && r === stop.record && !stop.live) f.presentationHint = 'subtle';
      return f;
    });
    response.body = { stackFrames: frames, totalFrames: frames.length };
    this.sendResponse(response);
  }

  protected override scopesRequest(response: DebugProtocol.ScopesResponse, args: DebugProtocol.ScopesArguments): void {
    const record = this.runtime.recordBySeq(args.frameId);
    if (!record) {
      response.body = { scopes: [] };
      return this.sendResponse(response);
    }
    const scopes = RECONCILE_SCOPES.filter((scope) => scope.shown?.(record, this.runtime) ?? true).map((scope) => {
      const value = scope.value(record, this.runtime);
      // The Object scope is the reconciled object: its fields can be watched (data breakpoints).
      const origin = value === record.object ? objectOrigin(value, record.forKind.kind) : undefined;
      return new Scope(scope.label(record), this.handles.create({ value, origin }), scope.expensive);
    });
    response.body = { scopes };
    this.sendResponse(response);
  }

  protected override variablesRequest(response: DebugProtocol.VariablesResponse, args: DebugProtocol.VariablesArguments): void {
    const container = this.handles.get(args.variablesReference);
    response.body = { variables: container ? childrenOf(container, (v) => this.handles.create(v)) : [] };
    this.sendResponse(response);
  }

  protected override evaluateRequest(response: DebugProtocol.EvaluateResponse, args: DebugProtocol.EvaluateArguments): void {
    const record = this.evaluatedRecord(args.frameId);
    try {
      const why = parseWhyCommand(args.expression, record && { kind: record.forKind.kind, key: record.key }, this.runtime.forKind);
      if (why) {
        response.body = { result: this.whyText(why), variablesReference: 0 };
        return this.sendResponse(response);
      }
      const value = evaluateInStop(args.expression, record, record ? this.runtime.cacheView(record) : this.runtime.cacheView(), record && this.runtime.queueFor(record));
      const v = toVariable('result', value, (x) => this.handles.create(x));
      response.body = { result: v.value, type: v.type, variablesReference: v.variablesReference };
      this.sendResponse(response);
    } catch (err) {
      // The console shows the message on a line of its own; `showUser` would also raise a notification.
      const message = err instanceof Error ? err.message : String(err);
      this.sendErrorResponse(response, { id: 2001, format: message, showUser: false });
    }
  }

  /** The reconcile an expression in the Debug Console is about: its frame's, else the stop's. */
  protected evaluatedRecord(frameId: number | undefined): ReconcileRecord | undefined {
    return (frameId !== undefined ? this.runtime.recordBySeq(frameId) : undefined) ?? this.runtime.current?.record;
  }

  protected override exceptionInfoRequest(response: DebugProtocol.ExceptionInfoResponse): void {
    const o = this.runtime.current?.record.outcome;
    if (o?.kind !== 'error') {
      response.body = { exceptionId: 'none', breakMode: 'never' };
    } else {
      response.body = {
        exceptionId: o.error.name,
        description: o.error.message,
        breakMode: 'always',
        details: { message: o.error.message, typeName: o.error.name, stackTrace: o.error.stack },
      };
    }
    this.sendResponse(response);
  }

  protected override continueRequest(response: DebugProtocol.ContinueResponse): void {
    response.body = { allThreadsContinued: true };
    this.sendResponse(response);
    this.runtime.continue();
  }

  protected override nextRequest(response: DebugProtocol.NextResponse): void {
    this.sendResponse(response);
    this.runtime.next();
  }

  /** Step into the reconcile's code: the JavaScript debugger attaches (if needed) and pauses before it. */
  protected override stepInRequest(response: DebugProtocol.StepInResponse): void {
    this.sendResponse(response);
    this.runtime.stepIn();
  }

  protected override stepOutRequest(response: DebugProtocol.StepOutResponse): void {
    this.sendResponse(response);
    this.runtime.next();
  }

  protected override stepBackRequest(response: DebugProtocol.StepBackResponse): void {
    if (!this.runtime.current) return this.refuseBackwards(response, 'Step Back');
    this.sendResponse(response);
    this.runtime.stepBack();
  }

  protected override reverseContinueRequest(response: DebugProtocol.ReverseContinueResponse): void {
    if (!this.runtime.current) return this.refuseBackwards(response, 'Reverse Continue');
    this.sendResponse(response);
    this.runtime.reverseContinue();
  }

  /**
   * Going back starts from a reconcile stop; stopped inside the program's own code (a Go line
   * breakpoint under Delve) there is none. An error keeps the thread shown stopped: a success
   * would have the editor wait, showing it running, for a stop that never comes.
   */
  private refuseBackwards(response: DebugProtocol.Response, what: string): void {
    this.sendErrorResponse(response, {
      id: 2004,
      format: `${what} moves between reconciles, from a stop before one; the program is stopped inside your code. Continue (or Step Over to the end of Reconcile): the next reconcile stops, and ${what} goes back from there.`,
      showUser: true,
    });
  }

  protected override pauseRequest(response: DebugProtocol.PauseResponse): void {
    this.sendResponse(response);
    this.runtime.pause();
  }

  /** The answer as the console prints it. */
  private whyText(target: WhyTarget): string {
    const answer = this.runtime.why(target);
    if (!answer) throw new Error('the controller has not started yet: nothing to answer from');
    return formatWhy(answer);
  }

  protected override customRequest(command: string, response: DebugProtocol.Response, args: unknown): void {
    if (command === WHY_REQUEST) return this.whyRequest(response, args);
    if (command !== JS_DEBUGGER_UNAVAILABLE_REQUEST) return super.customRequest(command, response, args);
    const reason = (args as { reason?: unknown } | undefined)?.reason;
    this.runtime.jsDebuggerUnavailable(typeof reason === 'string' ? reason : 'could not be started');
    this.sendResponse(response);
  }

  private whyRequest(response: DebugProtocol.Response, args: unknown): void {
    const { kind, key, resourceVersion } = (args ?? {}) as Partial<WhyTarget>;
    if (typeof kind !== 'string' || typeof key !== 'string' || (resourceVersion !== undefined && typeof resourceVersion !== 'string')) {
      return this.sendErrorResponse(response, { id: 2002, format: `${WHY_REQUEST} needs { kind, key, resourceVersion? }`, showUser: false });
    }
    const target: WhyTarget = { kind, key, ...(resourceVersion ? { resourceVersion } : {}) };
    const answer = this.runtime.why(target);
    if (!answer) return this.sendErrorResponse(response, { id: 2003, format: 'the controller has not started yet: nothing to answer from', showUser: false });
    response.body = { answer, text: formatWhy(answer) };
    this.sendResponse(response);
  }

  protected override async terminateRequest(response: DebugProtocol.TerminateResponse): Promise<void> {
    await this.runtime.shutdown();
    this.sendResponse(response);
    this.sendEvent(new TerminatedEvent());
  }

  protected override async disconnectRequest(response: DebugProtocol.DisconnectResponse): Promise<void> {
    await this.runtime.shutdown();
    this.sendResponse(response);
  }

  /** The scope `label` of a reconcile's frame (Data Breakpoint, Writes, …), when shown for it. */
  protected reconcileScope(record: ReconcileRecord, label: string): DebugProtocol.Scope | undefined {
    const scope = RECONCILE_SCOPES.find((s) => s.label(record) === label && (s.shown?.(record, this.runtime) ?? true));
    return scope && new Scope(label, this.handles.create({ value: scope.value(record, this.runtime) }), scope.expensive);
  }

  /** Variables handed out for the previous stop are gone. */
  protected forgetVariables(): void {
    this.handles.reset();
  }

  protected onStopped(s: StopState): void {
    this.forgetVariables();
    const text = s.reason === 'exception' ? s.description : s.live ? undefined : 'recorded';
    const event = new StoppedEvent(s.reason, this.runtime.threadOf(s.record), text) as DebugProtocol.StoppedEvent;
    event.body.allThreadsStopped = true;
    event.body.description = s.reason !== 'exception' && s.description ? s.description : `${s.live ? 'Paused before' : 'Recorded'} ${frameName(s.record)}`;
    if (s.breakpointId !== undefined) event.body.hitBreakpointIds = [s.breakpointId];
    this.sendEvent(event);
  }
}
