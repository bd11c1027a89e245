import { releaseInspectorWait } from '../runtime/index.ts';

// The controller host waits for the JavaScript debugger before user code runs (`--inspect-brk`,
// or Step Into's `waitForDebugger`). If none attaches in time (no JavaScript debugger in this
// editor, a refused connection), say so plainly and let the host run on, so a failed attach ends
// in a message and never in a session that hangs.

export const DEFAULT_ATTACH_TIMEOUT_MS = 20_000;

type Print = (category: 'console' | 'important', text: string) => void;

export class JsDebuggerAttach {
  private state: 'idle' | 'waiting' | 'attached' | 'released' = 'idle';
  private url = '';
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly timeoutMs: number;
  private readonly print: Print;

  constructor(options: { timeoutMs?: number; print: Print }) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_ATTACH_TIMEOUT_MS;
    this.print = options.print;
  }

  /** The host's inspector listens at `url` and the host waits for a debugger. */
  waiting(url: string): void {
    if (this.state !== 'idle') return;
    this.state = 'waiting';
    this.url = url;
    this.print('console', `Waiting for the JavaScript debugger to attach to the controller process (${url}); without one it runs on after ${seconds(this.timeoutMs)}.\n`);
    this.timer = setTimeout(() => this.giveUp(`did not attach within ${seconds(this.timeoutMs)}`), this.timeoutMs);
  }

  /** Node reported a debugger connection. */
  attached(): void {
    if (this.state !== 'waiting') return;
    clearTimeout(this.timer);
    this.state = 'attached';
    this.print('console', 'JavaScript debugger attached: line breakpoints in your controller hit.\n');
  }

  /** The editor could not start the JavaScript debugger: no point waiting. */
  unavailable(reason: string): void {
    if (this.state === 'waiting') this.giveUp(reason);
  }

  dispose(): void {
    clearTimeout(this.timer);
    if (this.state === 'waiting') this.state = 'released';
  }

  private giveUp(reason: string): void {
    if (this.state !== 'waiting') return;
    clearTimeout(this.timer);
    this.state = 'released';
    this.print(
      'important',
      `The JavaScript debugger ${reason} (controller process inspector ${this.url}), so line breakpoints will not hit in this session. The controller runs on; reconcile stops work as before.\n`,
    );
    // A host that already exited has nothing to release.
    releaseInspectorWait(this.url).catch(() => {});
  }
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
