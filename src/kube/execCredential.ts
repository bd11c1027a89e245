import type * as childProcessModule from 'node:child_process';
import { cleanupOnSignal } from '../shared/cleanupOnSignal.ts';
import { descendantsOf, killSeen } from '../shared/processDescendants.ts';

// Runs a kubeconfig's exec credential plugin as client-go does (plugin/pkg/client/auth/exec):
// stdin is the terminal only when the plugin may ask something of a person and one is there
// (otherwise it reads end-of-file at once rather than waiting forever on a pipe nobody writes),
// KUBERNETES_EXEC_INFO tells the plugin whether it is interactive, one plugin runs at a time per
// user, and what it says on stderr (a login URL, a prompt) reaches the user while it runs.
// Unlike client-go, a plugin that gives nothing for too long is stopped with an error naming it:
// waiting forever in silence helps nobody.

export interface ExecConfig {
  command: string;
  args?: string[];
  env?: { name: string; value: string }[] | null;
  apiVersion?: string;
  interactiveMode?: 'Never' | 'IfAvailable' | 'Always';
}

export interface ExecCredentialStatus {
  token?: string;
  clientCertificateData?: string;
  clientKeyData?: string;
  expirationTimestamp?: string;
}

export interface ExecRunOptions {
  /** Whether our stdin is a terminal the plugin may use (process.stdin.isTTY). */
  stdinIsTerminal: boolean;
  /** How long a plugin may take before it is stopped and the request fails. */
  timeoutMs: (interactive: boolean) => number;
  /** Each line the plugin writes to stderr, as it comes. */
  onStderrLine: (line: string) => void;
}

/** The plugin failed; the message says how, in the plugin's own words where it gave any. */
export class ExecPluginError extends Error {}

const STDERR_KEPT = 4096;

export class ExecCredentialSource {
  private cached: ExecCredentialStatus | undefined;
  private running: Promise<ExecCredentialStatus> | undefined;

  private readonly exec: ExecConfig;
  private readonly options: ExecRunOptions;

  constructor(exec: ExecConfig, options: ExecRunOptions) {
    this.exec = exec;
    this.options = options;
  }

  /** A credential still valid, else the plugin's fresh one (one run shared by concurrent callers). */
  async credential(): Promise<ExecCredentialStatus> {
    const c = this.cached;
    if (c && (!c.expirationTimestamp || Date.parse(c.expirationTimestamp) > Date.now())) return c;
    this.running ??= this.run().finally(() => (this.running = undefined));
    this.cached = await this.running;
    return this.cached;
  }

  private run(): Promise<ExecCredentialStatus> {
    const { exec, options } = this;
    if (typeof exec.command !== 'string' || !exec.command) throw new ExecPluginError('exec has no command');
    const mode = exec.interactiveMode ?? 'IfAvailable';
    if (mode === 'Always' && !options.stdinIsTerminal) {
      throw new ExecPluginError('its interactiveMode is Always but standard input is not a terminal: run the command from a terminal');
    }
    const interactive = mode !== 'Never' && options.stdinIsTerminal;
    const apiVersion = exec.apiVersion ?? 'client.authentication.k8s.io/v1';
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const e of exec.env ?? []) env[e.name] = e.value;
    env.KUBERNETES_EXEC_INFO = JSON.stringify({ apiVersion, kind: 'ExecCredential', spec: { interactive } });
    const timeoutMs = options.timeoutMs(interactive);
    return new Promise((resolve, reject) => {
      // In our process group, as client-go runs it: Ctrl-C in the terminal reaches it too.
      const child = childProcess().spawn(exec.command, exec.args ?? [], { env, stdio: [interactive ? 'inherit' : 'ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      let partial = '';
      let failure: Error | undefined;
      // Stops it and what it started (a shell script's `sleep`, which would hold its stderr open),
      // when it is given up on or when we exit while it runs.
      const stop = (): void => {
        if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
        const started = descendantsOf(child.pid);
        child.kill('SIGKILL');
        killSeen(started);
      };
      process.once('exit', stop);
      // A signal that ends us runs no 'exit' listener: stop the plugin then too.
      const uninstallSignals = cleanupOnSignal(stop);
      const timer = setTimeout(() => {
        reject(new ExecPluginError(`gave no credential within ${timeoutMs / 1000} s and was stopped${lastLine(stderr)}; run it alone to see what it waits for`));
        stop();
        process.off('exit', stop);
        uninstallSignals();
        child.stdout.destroy();
        child.stderr.destroy();
      }, timeoutMs);
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        stderr = (stderr + d).slice(-STDERR_KEPT);
        const lines = (partial + d).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) if (line.trim()) options.onStderrLine(line.trimEnd());
      });
      child.on('error', (err) => (failure ??= new ExecPluginError((err as NodeJS.ErrnoException).code === 'ENOENT' ? `command not found: ${exec.command}` : err.message)));
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        process.off('exit', stop);
        uninstallSignals();
        if (partial.trim()) options.onStderrLine(partial.trimEnd());
        if (failure) return reject(failure);
        if (code !== 0) return reject(new ExecPluginError(stderr.trim().split('\n').at(-1) || `exit ${signal ?? `code ${code}`}, no output`));
        try {
          resolve(parseCredential(stdout));
        } catch (err) {
          reject(err);
        }
      });
    });
  }
}

function lastLine(stderr: string): string {
  const line = stderr.trim().split('\n').at(-1)?.trim();
  return line ? ` (it last said: ${line})` : ' (it said nothing on stderr)';
}

function parseCredential(stdout: string): ExecCredentialStatus {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch {
    const shown = stdout.trim().slice(0, 80);
    throw new ExecPluginError(shown ? `printed something that is not an ExecCredential in JSON: ${JSON.stringify(shown)}` : 'printed nothing on stdout (an ExecCredential in JSON was expected)');
  }
  const status = (parsed as { status?: unknown } | null)?.status;
  if (!status || typeof status !== 'object') throw new ExecPluginError('printed an ExecCredential with no status');
  const s = status as ExecCredentialStatus;
  if (!s.token && !(s.clientCertificateData && s.clientKeyData)) throw new ExecPluginError('printed an ExecCredential whose status has neither a token nor a client certificate and key');
  return s;
}

/**
 * node:child_process, loaded the first time a plugin runs: most kubeconfigs have none, and loading
 * it (with node:dgram and node:net's handle passing) costs every `controller-lab watch` ~2 ms of CPU
 * at start.
 */
function childProcess(): typeof childProcessModule {
  return process.getBuiltinModule('node:child_process');
}
