import type { ChildProcess } from 'node:child_process';
import type { GoProgramRunner } from '../runtime/goControllerProcess.ts';
import { DELVE_BUILD_FLAGS, DelveDebugger } from './delveDebugger.ts';

// GoControllerProcess's hook for Delve: the same build with `-gcflags=all=-N -l`, the binary
// launched by `dlv dap` instead of spawned, with the same environment (Controller Lab's socket
// and secret), so the reconcile-level view (gate, records, queue) works exactly as without Delve
// and Go line breakpoints work on top of it.

export interface DelveRunnerOptions {
  dlvPath: string;
  /**
   * Called once Delve has launched the program and before it runs (between `initialized` and
   * `configurationDone`): set the Go line breakpoints here so the first reconcile already sees them.
   */
  configure?: (delve: DelveDebugger) => Promise<void>;
  /** Delve's start-up time limit (default 30 s). */
  timeoutMs?: number;
}

export class DelveRunner implements GoProgramRunner {
  readonly buildFlags = DELVE_BUILD_FLAGS;
  private delve: DelveDebugger | undefined;
  private readonly options: DelveRunnerOptions;

  constructor(options: DelveRunnerOptions) {
    this.options = options;
  }

  /** The Delve session, once start() has launched the program. */
  get debugger(): DelveDebugger | undefined {
    return this.delve;
  }

  async start(binary: string, env: NodeJS.ProcessEnv, cwd: string): Promise<ChildProcess> {
    const delve = await DelveDebugger.start({ dlvPath: this.options.dlvPath, program: binary, cwd, env, timeoutMs: this.options.timeoutMs });
    this.delve = delve;
    try {
      await this.options.configure?.(delve);
      await delve.configurationDone();
    } catch (err) {
      await delve.shutdown();
      throw err;
    }
    return delve.process;
  }

  async stop(): Promise<void> {
    await this.delve?.shutdown();
  }
}
