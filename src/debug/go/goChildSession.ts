// Go line debugging through VS Code's Go extension (`"goDebugger": "vscode-go"`): the Go program
// runs under a headless Delve as with `"lineBreakpoints": true`, but instead of our adapter
// attaching to Delve, the extension starts a child debug session of type `go` (the Go
// extension's debugger, remote attach over DAP) so Go breakpoints, frames, variables and stepping
// are the Go extension's UI. Where the Go extension is missing, our own Delve connection does it.
// No `vscode` import: the editor glue passes in what it knows.

/** Custom event: Delve listens for the Go extension's child session (body: GoDebuggerHandOver). */
export const ATTACH_GO_EVENT = 'controllerLab.attachGoDebugger';
/** Custom request: the Go extension's session could not start; our adapter attaches to Delve itself. */
export const GO_DEBUGGER_UNAVAILABLE_REQUEST = 'controllerLab.goDebuggerUnavailable';
/**
 * Custom event: Step Into at a reconcile stop while the Go extension drives Delve (body:
 * GoStepInto); the editor puts a one-shot function breakpoint in the Go session and answers
 * with GO_STEP_INTO_PLACED_REQUEST before the reconcile runs.
 */
export const GO_STEP_INTO_EVENT = 'controllerLab.goStepInto';
/** Custom request: `{ placed: boolean }`, the answer to GO_STEP_INTO_EVENT. */
export const GO_STEP_INTO_PLACED_REQUEST = 'controllerLab.goStepIntoPlaced';
/** Custom request: the Go session stopped on that breakpoint (the next reconcile stops, as after a step). */
export const GO_STEPPED_IN_REQUEST = 'controllerLab.goSteppedIn';
/** The Go extension's id. */
export const GO_EXTENSION_ID = 'golang.go';

export type GoDebuggerChoice = 'controller-lab' | 'vscode-go';

export interface GoDebuggerHandOver {
  host: string;
  port: number;
  /** The child session's name in the Call Stack. */
  name: string;
  cwd?: string;
}

export interface GoStepInto {
  /** Delve's function breakpoint: the controller's Reconcile (`main.(*mirrorReconciler).Reconcile`). */
  function: string;
  /** Only the held reconcile's goroutine stops there (`runtime.curg.goid == 42`). */
  condition?: string;
}

/** The Delve condition that stops only goroutine `goroutine` (Delve's runtime.curg). */
export function goroutineCondition(goroutine: number | undefined): string | undefined {
  return goroutine ? `runtime.curg.goid == ${goroutine}` : undefined;
}

export interface GoDebuggerConfig {
  program?: unknown;
  lineBreakpoints?: unknown;
  goDebugger?: unknown;
  [key: string]: unknown;
}

export interface ResolvedGoDebugger<C> {
  config: C;
  /** Shown to the user (the Go extension is missing, or the value is not known). */
  message?: string;
}

/**
 * What `goDebugger` means for this launch: "vscode-go" runs the program under Delve (line
 * breakpoints on) for the Go extension to attach; without the Go extension, our built-in Delve
 * connection does the same job, and the message says so.
 */
export function resolveGoDebugger<C extends GoDebuggerConfig>(config: C, goExtensionInstalled: boolean): ResolvedGoDebugger<C> {
  const choice = config.goDebugger;
  if (choice === undefined || choice === 'controller-lab') return { config };
  if (choice !== 'vscode-go') {
    return {
      config: { ...config, goDebugger: 'controller-lab' },
      message: `Controller Lab: "goDebugger": ${JSON.stringify(choice)} is not known ("controller-lab" or "vscode-go"); using Controller Lab's own Delve connection.`,
    };
  }
  if (!goExtensionInstalled) {
    return {
      config: { ...config, goDebugger: 'controller-lab', lineBreakpoints: true },
      message: `Controller Lab: "goDebugger": "vscode-go" needs VS Code's Go extension (${GO_EXTENSION_ID}), which is not installed. Go line breakpoints go through Controller Lab's own Delve connection instead.`,
    };
  }
  return { config: { ...config, lineBreakpoints: true } };
}

/**
 * The Go extension's child session: a remote attach over DAP to the headless Delve that runs the
 * program (vscode-go's "Connect to server" configuration with the dlv-dap adapter).
 */
export function goChildConfiguration(handOver: GoDebuggerHandOver): Record<string, unknown> {
  return {
    type: 'go',
    request: 'attach',
    name: handOver.name,
    mode: 'remote',
    debugAdapter: 'dlv-dap',
    host: handOver.host,
    port: handOver.port,
    // Built on this machine: the paths in the binary are the workspace's own.
    ...(handOver.cwd ? { cwd: handOver.cwd } : {}),
    stopOnEntry: false,
  };
}
