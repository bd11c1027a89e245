// `controller-lab sim` as a process that tests may kill -9 and start again on the same port and
// state dir (so clients, informers included, can carry on across the restart), optionally under a
// file-size limit (`ulimit -f`), which makes writes fail with EFBIG as a full disk would, no root needed.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { endpointFromKubeconfig, type SimEndpoint } from '../../src/sim/server/adminClient.ts';
import { REPO_ROOT } from './simProcess.ts';

export interface CrashableSim {
  port: number;
  stateDir: string;
  kubeconfigPath: string;
  endpoint: SimEndpoint;
  process: ChildProcess;
  output(): string;
  /** SIGKILL: no shutdown code runs. Resolves once the process is gone. */
  kill9(): Promise<void>;
  /** SIGTERM; resolves to the exit code. */
  stop(): Promise<number | null>;
}

const running = new Set<ChildProcess>();

/** Kills what a failed test left running (call from after()). */
export function killLeftoverSims(): void {
  for (const child of running) child.kill('SIGKILL');
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
  const { port } = server.address() as { port: number };
  await new Promise((res) => server.close(res));
  return port;
}

/** Runs `controller-lab sim …` to its exit (for starts that must fail): code and output. */
export function runSimToExit(args: string[], timeoutMs = 20_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((res) => {
    const child = spawn(process.execPath, ['src/cli/main.ts', 'sim', ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      res({ code, stdout, stderr });
    });
  });
}

export async function startCrashableSim(stateDir: string, port: number, options: { fileSizeLimitBlocks?: number; args?: string[] } = {}): Promise<CrashableSim> {
  const simArgs = ['src/cli/main.ts', 'sim', '--port', String(port), '--state-dir', stateDir, ...(options.args ?? [])];
  const child = options.fileSizeLimitBlocks === undefined
    ? spawn(process.execPath, simArgs, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn('sh', ['-c', `ulimit -f ${options.fileSizeLimitBlocks} && exec "$@"`, 'sh', process.execPath, ...simArgs], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (out += d));
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
  await new Promise<void>((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`sim did not start in 20 s:\n${out}`)), 20_000);
    const check = () => {
      if (/Press Ctrl\+C/.test(out)) {
        clearTimeout(timer);
        res();
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      rej(new Error(`sim exited with ${code} before it was ready:\n${out}`));
    });
  });
  const kubeconfigPath = /Kubeconfig: (\S+)/.exec(out)?.[1] ?? join(stateDir, 'kubeconfig');
  running.add(child);
  child.once('exit', () => running.delete(child));
  return {
    port,
    stateDir,
    kubeconfigPath,
    endpoint: endpointFromKubeconfig(await readFile(kubeconfigPath, 'utf8')),
    process: child,
    output: () => out,
    async kill9() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
