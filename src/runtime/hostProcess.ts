import type { ControllerProcessEvents } from './controllerProcess.ts';
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
  /** Asks the process to stop, kills it after `graceMs`; resolves once it is gone. */
  stop(graceMs?: number): Promise<void>;
  /** Immediate: for a parent that is exiting itself. */
  kill(): void;
  /** A line debugger may now hold the process paused: silence no longer means blocked. */
  stopWatchdog(): void;
}
