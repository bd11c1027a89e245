import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageCommand } from './command.ts';
import { OutputTail } from './output.ts';

// One `controller-lab sim` process, in a process group of its own, and the temporary folder of its
// kubeconfig. Started, it is waited for until it prints where its kubeconfig is; stopped, it gets
// SIGTERM, then SIGKILL. A test process that ends without stopping it takes it along.

const KUBECONFIG_LINE = /^Kubeconfig: (\S+)$/m;
const SERVING_LINE = /^Simulated cluster serving on (\S+)$/m;
const STOP_GRACE_MS = 10_000;

export interface SimProcessOptions {
  args: string[];
  startTimeoutMs: number;
}

export class SimProcess {
  readonly kubeconfig: string;
  readonly server: string;
  private readonly child: ChildProcess;
  private readonly dir: string;
  private readonly exited: Promise<void>;
  private readonly output: OutputTail;
  private readonly killOnExit: () => void;

  private constructor(child: ChildProcess, dir: string, exited: Promise<void>, output: OutputTail, kubeconfig: string, server: string) {
    this.child = child;
    this.dir = dir;
    this.exited = exited;
    this.output = output;
    this.kubeconfig = kubeconfig;
    this.server = server;
    this.killOnExit = () => this.signal('SIGKILL');
    process.once('exit', this.killOnExit);
  }

  static async start(options: SimProcessOptions): Promise<SimProcess> {
    const dir = mkdtempSync(join(tmpdir(), 'controller-lab-simtest-'));
    const kubeconfig = join(dir, 'kubeconfig');
    const command = packageCommand();
    // Its standard input stays open as long as this process lives: the sim stops when it closes, so
    // a test killed by a signal (where no 'exit' handler runs) does not leave it behind.
    const child = spawn(command, ['sim', '--port', '0', '--kubeconfig-out', kubeconfig, '--stop-with-stdin', ...options.args], { detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const output = new OutputTail();
    let stdout = '';
    let ended = '';
    const exited = new Promise<void>((resolve) =>
      child.once('exit', (code, signal) => {
        ended = signal ?? `code ${code}`;
        resolve();
      }),
    );
    child.stderr?.on('data', (chunk: Buffer) => output.add(chunk));
    try {
      const server = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`controller-lab sim did not serve within ${options.startTimeoutMs} ms:\n${output}`)), options.startTimeoutMs);
        child.once('error', (err) => {
          clearTimeout(timer);
          reject(new Error(`starting ${command}: ${err.message}`));
        });
        // After it served, this rejection is a no-op.
        void exited.then(() => {
          clearTimeout(timer);
          reject(new Error(`controller-lab sim exited (${ended}) before it served:\n${output}`));
        });
        child.stdout?.on('data', (chunk: Buffer) => {
          output.add(chunk);
          stdout += String(chunk);
          const url = SERVING_LINE.exec(stdout)?.[1];
          if (url && KUBECONFIG_LINE.test(stdout)) {
            clearTimeout(timer);
            resolve(url);
          }
        });
      });
      // Served: the sim no longer keeps the test's event loop alive (a test that forgets stop() ends,
      // and takes the sim along on its way out).
      child.unref();
      for (const stream of [child.stdin, child.stdout, child.stderr]) (stream as unknown as { unref?: () => void } | null)?.unref?.();
      return new SimProcess(child, dir, exited, output, kubeconfig, server);
    } catch (err) {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
      rmSync(dir, { recursive: true, force: true });
      throw err;
    }
  }

  /** What the sim printed (its last 64 KB). */
  get log(): string {
    return this.output.toString();
  }

  async stop(): Promise<void> {
    process.removeListener('exit', this.killOnExit);
    if (this.child.exitCode === null && this.child.signalCode === null) {
      // Unreferenced once it served: referenced again, it keeps the test's event loop alive until it has gone.
      this.child.ref();
      this.signal('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), STOP_GRACE_MS)));
      if ((await Promise.race([this.exited, late])) === 'late') {
        this.signal('SIGKILL');
        await this.exited;
      }
      clearTimeout(timer);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  private signal(signal: NodeJS.Signals): void {
    try {
      if (this.child.pid) process.kill(-this.child.pid, signal);
    } catch {
      // Already gone.
    }
  }
}
