import type { HostInit, HostMessage, ParentMessage } from '../controllerProtocol/index.ts';
import type { Listener, Subscription } from './typedEmitter.ts';

// What ControllerSession needs from the process that runs a controller, whatever its language: the
// TypeScript host (ControllerProcess) and a Go controller-runtime program (GoControllerProcess) both
// emit the controller-host protocol's messages as these events and take the same commands.

export interface HostProcess {
  readonly pid: number | undefined;
  readonly running: boolean;
  on<K extends keyof ControllerProcessEvents>(event: K, listener: Listener<ControllerProcessEvents[K]>): Subscription;
  /** Lets a reconcile held at the gate run; `stepIn`: pause it in the line debugger first. */
  proceed(reconcileId: string, stepIn?: boolean): void;
  /** A message of the protocol (a resync), when the process is connected; dropped otherwise. */
  send(message: ParentMessage): void;
  /** Asks the process to stop, kills it after `graceMs`; resolves once it is gone. */
  stop(graceMs?: number): Promise<void>;
  /** Immediate: for a parent that is exiting itself. */
  kill(): void;
  /** A line debugger may now hold the process paused: silence no longer means blocked. */
  stopWatchdog(): void;
}

/** How the parent starts a TypeScript controller's host (see ControllerProcess). */
export interface HostSpawnOptions {
  /** Start the child with `--inspect-brk=0` so a JavaScript debugger can attach before user code runs. */
  inspectBrk?: boolean;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Kill the child when its event loop is silent this long (ms); 0 or absent: never. */
  stallMs?: number;
  /** The child's heap limit (V8's old generation), in MB; 0: V8's own. Default DEFAULT_HOST_HEAP_MB. */
  maxHeapMb?: number;
}

/**
 * The process that runs a TypeScript controller, started (and restarted after a failure) with the
 * host's `init`: the controller host child (ControllerProcess), or, in tests, a host in this process
 * that speaks the same protocol.
 */
export interface TypeScriptHost extends HostProcess {
  start(init: Omit<HostInit, 'type'>, options?: HostSpawnOptions): void;
}

// The events a host process emits: the protocol's messages, plus what the parent sees of the process.
type MessageEvents = { [K in Exclude<HostMessage['type'], 'inspector' | 'heartbeat' | 'batch'>]: Extract<HostMessage, { type: K }> };

export type ControllerProcessEvents = MessageEvents & {
  output: { stream: 'stdout' | 'stderr'; text: string };
  /** The child's inspector is listening (attachJsDebugger). */
  inspector: { port: number; url: string };
  /** A debugger connected to the child's inspector (Node says so on stderr). */
  debuggerAttached: Record<string, never>;
  /** The child's event loop stopped (no heartbeat for `silentMs`); it is being killed. */
  unresponsive: { silentMs: number };
  /**
   * `expected`: the parent asked for it (stop, kill); otherwise the child died or was stopped as
   * unresponsive. `heapLimitMb`: it died of running out of heap, past that limit (0: V8's own).
   */
  exit: { code: number | null; signal: NodeJS.Signals | null; expected: boolean; heapLimitMb?: number };
};
