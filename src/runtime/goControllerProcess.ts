import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { TypedEmitter } from './typedEmitter.ts';
import { adoptMark, endLeftovers, markedEnv, noteDescendants, OWN_PROCESS_GROUP } from './processGroup.ts';
import type { ControllerProcessEvents } from './hostProcess.ts';
import type { HostProcess } from './hostProcess.ts';
import { isHostMessage, type ParentMessage } from '../controllerProtocol/index.ts';
import { cachedProgramPath } from './goProgramCache.ts';
import { describeGoBuildFailure, goNotFoundMessage, neverConnectedMessage } from './goMessages.ts';

// The parent's handle on a Go controller-runtime program that calls controllerlab.Wrap (go/ in this
// repository): builds it with `go build`, starts it with a Unix socket and a per-run secret in its
// environment, checks the secret on the first line, and from then on emits the same events as
// ControllerProcess does for the TypeScript host, so ControllerSession and the debugger need no
// Go-specific logic.

/** How the built binary is started: by default itself; a line debugger may run it under `dlv exec`. */
export type GoCommandWrapper = (binary: string, args: string[]) => { command: string; args: string[] };

export interface GoBuildOptions {
  /** The Go main package to build: a directory (`.`, `./cmd/manager`) or a package path. */
  packageDir: string;
  /** The module directory `go build` runs in. Default: packageDir. */
  moduleDir?: string;
  /** Extra `go build` flags (`-tags=e2e`, `-gcflags=all=-N -l` for a line debugger). */
  buildFlags?: string[];
  /** Default `go` on the PATH. */
  goBinary?: string;
}

export interface GoControllerOptions extends GoBuildOptions {
  kubeconfig: string;
  /** Hold each reconcile until proceed() (the debugger's gate). */
  gated: boolean;
  /** Deltas carry the cached objects (the parent's cache history). */
  mirrorCache: boolean;
  /** The program's command-line arguments. */
  args?: string[];
  env?: NodeJS.ProcessEnv;
  /** The program's working directory. Default: the module directory. */
  cwd?: string;
  wrapCommand?: GoCommandWrapper;
  /** How long the program has to connect after it starts. Default 30 s. */
  connectTimeoutMs?: number;
  /** The last seqs of the process before this one: a restarted program numbers its reconciles and deltas on from them. */
  seqsFrom?: { reconcile: number; delta: number };
}

export const DEFAULT_GO_CONNECT_TIMEOUT_MS = 30_000;

/** What buildGoProgram resolves to when `stop` ended the build: not a failure of the program. */
export const BUILD_STOPPED = 'go build stopped';

/** go's error output kept for the message: more is never read. */
const BUILD_OUTPUT_LIMIT = 16 << 20;

/** How long an interrupted `go build` has to clean up its work folder before it is killed. */
const BUILD_STOP_GRACE_MS = 2000;

/**
 * `go build -o binary`. Resolves undefined when it built, else what went wrong (go's own output),
 * or BUILD_STOPPED once `stop` is aborted: the build (go and the compilers it started, in a process
 * group of their own) is interrupted as Ctrl+C would, then killed.
 */
export async function buildGoProgram(options: GoBuildOptions, binary: string, stop?: AbortSignal): Promise<string | undefined> {
  const moduleDir = resolve(options.moduleDir ?? options.packageDir);
  const pkg = !options.moduleDir ? '.' : /^[./]/.test(options.packageDir) ? resolve(options.packageDir) : options.packageDir;
  const go = options.goBinary ?? 'go';
  if (stop?.aborted) return BUILD_STOPPED;
  const failure = await new Promise<string | undefined>((done) => {
    // A group of its own only when something will stop it: otherwise it stays in ours, where a
    // terminal's Ctrl+C reaches it with us.
    const ownGroup = OWN_PROCESS_GROUP && stop !== undefined;
    const child = spawn(go, ['build', ...(options.buildFlags ?? []), '-o', binary, pkg], { cwd: moduleDir, stdio: ['ignore', 'ignore', 'pipe'], detached: ownGroup });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      if (stderr.length < BUILD_OUTPUT_LIMIT) stderr += d;
    });
    let kill: NodeJS.Timeout | undefined;
    const signalBuild = (signal: NodeJS.Signals) => {
      try {
        if (ownGroup && child.pid !== undefined) process.kill(-child.pid, signal);
        else child.kill(signal);
      } catch {
        // ESRCH: the build has ended.
      }
    };
    const interrupt = () => {
      signalBuild('SIGINT');
      kill = setTimeout(() => signalBuild('SIGKILL'), BUILD_STOP_GRACE_MS);
    };
    stop?.addEventListener('abort', interrupt, { once: true });
    const finish = (result: string | undefined) => {
      stop?.removeEventListener('abort', interrupt);
      clearTimeout(kill);
      done(stop?.aborted ? BUILD_STOPPED : result);
    };
    child.once('error', (err: NodeJS.ErrnoException) => finish(err.code === 'ENOENT' ? goNotFoundMessage(go) : err.message));
    child.once('close', (code, signal) => {
      if (code === 0) return finish(undefined);
      finish(describeGoBuildFailure(stderr || `go build ended with ${signal ?? `exit code ${code}`}`, moduleDir));
    });
  });
  if (failure) return failure;
  // `go build -o` of a package that is not `main` succeeds and writes an archive, not a program.
  if (!existsSync(binary) || (statSync(binary).mode & 0o111) === 0) return `${options.packageDir} is not a main package: name the directory of the program's main.go (kubebuilder puts it in ./cmd)`;
  return undefined;
}

export class GoControllerProcess extends TypedEmitter<ControllerProcessEvents> implements HostProcess {
  private child: ChildProcess | undefined;
  private server: Server | undefined;
  private socket: Socket | undefined;
  private dir: string | undefined;
  private binary: string | undefined;
  private alive = false;
  private expectingExit = false;
  private exited: Promise<void> = Promise.resolve();
  private helloTimer: NodeJS.Timeout | undefined;
  /** The `go build` running, which stop() interrupts and waits for (so none is left compiling). */
  private building: { abort: AbortController; ended: Promise<unknown> } | undefined;

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.alive;
  }

  /** The program said hello with the right secret (it calls controllerlab.Wrap); stays true after it exits. */
  get connected(): boolean {
    return this.socket !== undefined;
  }

  /** Runs `go build`. Resolves undefined when it built, else what went wrong (go's own output), or BUILD_STOPPED after stop(). */
  async build(options: GoBuildOptions): Promise<string | undefined> {
    this.dir ??= mkdtempSync(join(tmpdir(), 'controller-lab-go-'));
    const binary = cachedProgramPath(options) ?? join(this.dir, 'controller');
    const abort = new AbortController();
    const ended = buildGoProgram(options, binary, abort.signal);
    const building = { abort, ended };
    this.building = building;
    const failure = await ended;
    if (this.building === building) this.building = undefined;
    if (failure === undefined) this.binary = binary;
    return failure;
  }

  /** Starts `binary` (a program built already) instead of building; undefined when it is there. */
  useBinary(binary: string): string | undefined {
    if (!existsSync(binary)) return `${binary} does not exist`;
    this.dir ??= mkdtempSync(join(tmpdir(), 'controller-lab-go-'));
    this.binary = binary;
    return undefined;
  }

  /**
   * Builds (once per instance) and starts. Resolves false (after a `fatal` event, phase `load`) when
   * the program does not build.
   */
  async start(options: GoControllerOptions): Promise<boolean> {
    if (!this.binary) {
      const failure = await this.build(options);
      if (failure !== undefined) {
        this.emit('fatal', { type: 'fatal', phase: 'load', message: failure });
        return false;
      }
    }
    const binary = this.binary as string;
    const dir = this.dir as string;
    const moduleDir = resolve(options.moduleDir ?? options.packageDir);
    const secret = randomBytes(24).toString('base64url');
    const socketPath = join(dir, 'lab.sock');
    rmSync(socketPath, { force: true });
    this.socket = undefined;
    const server = createServer((socket) => this.accept(socket, secret));
    this.server = server;
    await new Promise<void>((ready) => server.listen(socketPath, ready));

    const command = (options.wrapCommand ?? ((b, a) => ({ command: b, args: a })))(binary, options.args ?? []);
    const env = markedEnv({
      ...process.env,
      ...options.env,
      KUBECONFIG: options.kubeconfig,
      CONTROLLER_LAB_SOCKET: socketPath,
      CONTROLLER_LAB_SECRET: secret,
      CONTROLLER_LAB_GATED: options.gated ? '1' : '0',
      CONTROLLER_LAB_MIRROR_CACHE: options.mirrorCache ? '1' : '0',
      ...(options.seqsFrom ? { CONTROLLER_LAB_RECONCILE_SEQ: String(options.seqsFrom.reconcile), CONTROLLER_LAB_DELTA_SEQ: String(options.seqsFrom.delta) } : {}),
    });
    const child = spawn(command.command, command.args, {
      cwd: options.cwd ?? moduleDir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: OWN_PROCESS_GROUP,
    });
    adoptMark(child, env);
    this.child = child;
    this.alive = true;
    this.expectingExit = false;
    this.exited = new Promise((done) => {
      let ended = false;
      const end = (code: number | null, signal: NodeJS.Signals | null) => {
        if (ended) return;
        ended = true;
        this.alive = false;
        endLeftovers(child);
        clearTimeout(this.helloTimer);
        this.closeConnection();
        this.emit('exit', { code, signal, expected: this.expectingExit });
        done();
      };
      child.once('exit', end);
      child.on('error', (err) => {
        // Could not be started at all (a wrapper command that is not installed): no 'exit' follows.
        if (child.pid !== undefined) return this.emit('output', { stream: 'stderr', text: `go controller: ${err.message}\n` });
        this.emit('fatal', { type: 'fatal', phase: 'load', message: `cannot start ${command.command}: ${err.message}` });
        end(null, null);
      });
    });
    child.stdout?.setEncoding('utf8').on('data', (text: string) => this.emit('output', { stream: 'stdout', text }));
    child.stderr?.setEncoding('utf8').on('data', (text: string) => this.emit('output', { stream: 'stderr', text }));
    const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_GO_CONNECT_TIMEOUT_MS;
    this.helloTimer = setTimeout(() => {
      if (this.socket || !this.alive) return;
      this.emit('fatal', { type: 'fatal', phase: 'connect', message: neverConnectedMessage(connectTimeoutMs) });
      // Unfollowed, it would reconcile (and write) with nobody watching.
      this.kill();
    }, connectTimeoutMs);
    this.helloTimer.unref();
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
          clearTimeout(this.helloTimer);
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

  /** `stepIn` goes to the program as it is: a line debugger started through wrapCommand acts on it. */
  proceed(reconcileId: string, stepIn = false): void {
    this.send({ type: 'proceed', reconcileId, stepIn: stepIn || undefined });
  }

  /** No heartbeat watchdog runs for a Go program. */
  stopWatchdog(): void {}

  /** Asks the program to stop (its mgr.Start returns), then SIGTERM, then SIGKILL after graceMs. */
  async stop(graceMs = 2000): Promise<void> {
    if (this.building) {
      this.building.abort.abort();
      await this.building.ended;
    }
    const child = this.child;
    if (child && this.alive) {
      this.expectingExit = true;
      noteDescendants(child);
      this.send({ type: 'shutdown' });
      this.socket?.end();
      const term = setTimeout(() => child.kill('SIGTERM'), graceMs / 2);
      const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await this.exited;
      clearTimeout(term);
      clearTimeout(kill);
    }
    this.dispose();
  }

  kill(): void {
    if (!this.alive) return;
    this.expectingExit = true;
    if (this.child) noteDescendants(this.child);
    this.child?.kill('SIGKILL');
  }

  /** Removes the socket (and a binary built outside the program cache); a later start() builds again. */
  dispose(): void {
    clearTimeout(this.helloTimer);
    this.closeConnection();
    if (this.dir && !this.alive) {
      rmSync(this.dir, { recursive: true, force: true });
      this.dir = undefined;
      this.binary = undefined;
    }
  }

  private closeConnection(): void {
    this.socket?.destroy();
    this.server?.close();
    this.server = undefined;
  }
}

function isHello(message: unknown, secret: string): boolean {
  const m = message as { type?: unknown; secret?: unknown };
  if (typeof m !== 'object' || m === null || m.type !== 'hello' || typeof m.secret !== 'string') return false;
  const a = Buffer.from(m.secret);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}
