import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { TypedEmitter } from './typedEmitter.ts';
import type { ControllerProcessEvents } from './controllerProcess.ts';
import { isHostMessage, type ParentMessage } from './protocol.ts';

// The parent's handle on a Go controller-runtime program that calls controllerlab.Wrap (go/ in this
// repository): builds it with `go build`, starts it with a Unix socket and a per-run secret in its
// environment, checks the secret on the first line, and from then on emits the same events as
// ControllerProcess does for the TypeScript host, so ControllerSession and the debugger need no
// Go-specific logic.

export interface GoControllerOptions {
  /** The Go main package to build: a directory (`.`, `./cmd/manager`) inside the user's module. */
  packageDir: string;
  /** The module directory `go build` runs in. Default: packageDir. */
  moduleDir?: string;
  kubeconfig: string;
  /** Hold each reconcile until proceed() (the debugger's gate). */
  gated: boolean;
  /** Deltas carry the cached objects (the parent's cache history). */
  mirrorCache: boolean;
  env?: NodeJS.ProcessEnv;
  /** Default `go` on the PATH. */
  goBinary?: string;
}

const HELLO_TIMEOUT_MS = 30_000;

export class GoControllerProcess extends TypedEmitter<ControllerProcessEvents> {
  private child: ChildProcess | undefined;
  private server: Server | undefined;
  private socket: Socket | undefined;
  private dir: string | undefined;
  private alive = false;
  private expectingExit = false;
  private exited: Promise<void> = Promise.resolve();

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.alive;
  }

  /** Builds and starts. Resolves false (after a `fatal` event) when the program does not build. */
  async start(options: GoControllerOptions): Promise<boolean> {
    this.dir = mkdtempSync(join(tmpdir(), 'controller-lab-go-'));
    const binary = join(this.dir, 'controller');
    const moduleDir = resolve(options.moduleDir ?? options.packageDir);
    const pkg = options.moduleDir ? resolve(options.packageDir) : '.';
    const built = await new Promise<string | undefined>((done) => {
      execFile(options.goBinary ?? 'go', ['build', '-o', binary, pkg], { cwd: moduleDir, maxBuffer: 16 << 20 }, (err, _stdout, stderr) =>
        done(err ? (stderr || err.message) : undefined),
      );
    });
    if (built !== undefined) {
      this.emit('fatal', { type: 'fatal', phase: 'load', message: `go build failed:\n${built}` });
      this.cleanup();
      return false;
    }
    const secret = randomBytes(24).toString('base64url');
    const socketPath = join(this.dir, 'lab.sock');
    this.server = createServer((socket) => this.accept(socket, secret));
    await new Promise<void>((ready) => this.server?.listen(socketPath, ready));

    const child = spawn(binary, [], {
      cwd: moduleDir,
      env: {
        ...process.env,
        ...options.env,
        KUBECONFIG: options.kubeconfig,
        CONTROLLER_LAB_SOCKET: socketPath,
        CONTROLLER_LAB_SECRET: secret,
        CONTROLLER_LAB_GATED: options.gated ? '1' : '0',
        CONTROLLER_LAB_MIRROR_CACHE: options.mirrorCache ? '1' : '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.alive = true;
    this.exited = new Promise((done) => {
      child.once('exit', (code, signal) => {
        this.alive = false;
        this.emit('exit', { code, signal, expected: this.expectingExit });
        this.cleanup();
        done();
      });
    });
    child.on('error', (err) => this.emit('output', { stream: 'stderr', text: `go controller: ${err.message}\n` }));
    child.stdout?.setEncoding('utf8').on('data', (text: string) => this.emit('output', { stream: 'stdout', text }));
    child.stderr?.setEncoding('utf8').on('data', (text: string) => this.emit('output', { stream: 'stderr', text }));
    const helloTimer = setTimeout(() => {
      if (!this.socket && this.alive) this.emit('fatal', { type: 'fatal', phase: 'connect', message: 'the Go program did not connect to Controller Lab: does its main.go call controllerlab.Wrap(mgr)?' });
    }, HELLO_TIMEOUT_MS);
    helloTimer.unref();
    return true;
  }

  /** The first connection that sends the right secret is the child; anything else is dropped. */
  private accept(socket: Socket, secret: string): void {
    let buffered = '';
    let greeted = false;
    socket.setEncoding('utf8');
    socket.on('error', () => {});
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        let message: unknown;
        try {
          message = JSON.parse(line);
        } catch {
          continue;
        }
        if (!greeted) {
          if (this.socket || !isHello(message, secret)) {
            socket.destroy();
            return;
          }
          greeted = true;
          this.socket = socket;
          continue;
        }
        this.dispatch(message);
      }
    });
  }

  /** Heartbeats mean nothing here (no watchdog for Go hosts yet); a batch is its messages in order. */
  private dispatch(message: unknown): void {
    if (!isHostMessage(message) || message.type === 'inspector' || message.type === 'heartbeat') return;
    if (message.type === 'batch') {
      if (Array.isArray(message.messages)) for (const one of message.messages) this.dispatch(one);
      return;
    }
    this.emit(message.type, message as never);
  }

  send(message: ParentMessage): void {
    if (this.socket && !this.socket.destroyed) this.socket.write(JSON.stringify(message) + '\n');
  }

  proceed(reconcileId: string, stepIn = false): void {
    this.send({ type: 'proceed', reconcileId, stepIn: stepIn || undefined });
  }

  /** Asks the program to stop (its mgr.Start returns), then SIGTERM, then SIGKILL after graceMs. */
  async stop(graceMs = 2000): Promise<void> {
    const child = this.child;
    if (!child || !this.alive) return this.cleanup();
    this.expectingExit = true;
    this.send({ type: 'shutdown' });
    this.socket?.end();
    const term = setTimeout(() => child.kill('SIGTERM'), graceMs / 2);
    const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(term);
    clearTimeout(kill);
  }

  kill(): void {
    if (!this.alive) return;
    this.expectingExit = true;
    this.child?.kill('SIGKILL');
  }

  private cleanup(): void {
    this.socket?.destroy();
    this.server?.close();
    this.server = undefined;
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }
}

function isHello(message: unknown, secret: string): boolean {
  const m = message as { type?: unknown; secret?: unknown };
  if (typeof m !== 'object' || m === null || m.type !== 'hello' || typeof m.secret !== 'string') return false;
  const a = Buffer.from(m.secret);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}
