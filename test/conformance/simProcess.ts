// Starts `controller-lab sim` as a real process (as a user would) and drives it with real clients:
// kubectl with the kubeconfig it printed, and raw HTTPS requests with its token and CA.
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { endpointFromKubeconfig, type SimEndpoint } from '../../src/sim/server/adminClient.ts';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface SimProcess {
  url: string;
  kubeconfigPath: string;
  stateDir: string;
  endpoint: SimEndpoint;
  process: ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  /** SIGTERM, then waits for the exit; resolves to the exit code. */
  stop(): Promise<number | null>;
}

/**
 * How the sim is started: from source (the default), or `npx controller-lab`, the README's command,
 * which runs the built dist/cli.cjs through package.json's `bin`.
 */
export type SimLauncher = 'source' | 'npx';

/** `nodeFlags`: V8 and Node flags for the sim's process (started from source). */
export async function startSimProcess(extraArgs: string[] = [], stateDir?: string, launcher: SimLauncher = 'source', nodeFlags: string[] = []): Promise<SimProcess> {
  const dir = stateDir ?? (await mkdtemp(join(tmpdir(), 'controller-lab-conformance-')));
  // SIM_SERVER_VERSION=v1.32.2 runs the suites with the kubectl the dispatcher picks for that server.
  const version = process.env['SIM_SERVER_VERSION'] ? ['--server-version', process.env['SIM_SERVER_VERSION']] : [];
  const simArgs = ['sim', '--port', '0', '--state-dir', dir, ...version, ...extraArgs];
  const child =
    launcher === 'npx'
      ? // npx runs the bin through a shell: its own process group, so stop() reaches the sim too.
        spawn('npx', ['--no-install', 'controller-lab', ...simArgs], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
      : spawn(process.execPath, [...nodeFlags, 'src/cli/main.ts', ...simArgs], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
  const ready = await new Promise<{ url: string; kubeconfigPath: string }>((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`sim did not start in 20 s:\n${out}\n${err}`)), 20_000);
    const check = () => {
      const url = /serving on (\S+)/.exec(out)?.[1];
      const kubeconfigPath = /Kubeconfig: (\S+)/.exec(out)?.[1];
      if (url && kubeconfigPath) {
        clearTimeout(timer);
        res({ url, kubeconfigPath });
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      rej(new Error(`sim exited with ${code} before it was ready:\n${out}\n${err}`));
    });
  });
  const endpoint = endpointFromKubeconfig(await readFile(ready.kubeconfigPath, 'utf8'));
  return {
    ...ready,
    stateDir: dir,
    endpoint,
    process: child,
    output: () => out + err,
    async stop() {
      if (child.exitCode === null) {
        if (launcher === 'npx') process.kill(-child.pid!, 'SIGTERM');
        else child.kill('SIGTERM');
      }
      const code = await exited;
      // A state dir made here is this run's alone; one the caller passed is theirs (restart tests reuse it).
      // Under npx the sim is a grandchild that may still be writing its final snapshot: retry.
      if (stateDir === undefined) await rm(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
      return code;
    },
  };
}

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs kubectl against the sim (own discovery cache dir per sim, so runs never share one). */
export function kubectl(sim: SimProcess, args: string[], options: { input?: string; timeoutMs?: number; env?: Record<string, string> } = {}): Promise<CommandResult> {
  return new Promise((res) => {
    const child = execFile(
      'kubectl',
      ['--kubeconfig', sim.kubeconfigPath, '--cache-dir', join(sim.stateDir, 'kubectl-cache'), ...args],
      { timeout: options.timeoutMs ?? 30_000, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ...options.env } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        res({ code, stdout, stderr });
      },
    );
    if (options.input !== undefined) child.stdin!.end(options.input);
  });
}

/** kubectl that must succeed: returns stdout, or throws with stderr. */
export async function kubectlOk(sim: SimProcess, args: string[], input?: string): Promise<string> {
  const r = await kubectl(sim, args, input === undefined ? {} : { input });
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed (${r.code}):\n${r.stderr}${r.stdout}`);
  return r.stdout;
}

/** A running `kubectl … -w`: its output so far, and a way to end it. */
export interface BackgroundCommand {
  output(): string;
  waitFor(predicate: (out: string) => boolean, timeoutMs?: number): Promise<string>;
  stop(): Promise<void>;
}

export function kubectlBackground(sim: SimProcess, args: string[]): BackgroundCommand {
  const child = spawn('kubectl', ['--kubeconfig', sim.kubeconfigPath, '--cache-dir', join(sim.stateDir, 'kubectl-cache'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  return {
    output: () => out,
    waitFor(predicate, timeoutMs = 15_000) {
      return new Promise((res, rej) => {
        const started = Date.now();
        const poll = () => {
          if (predicate(out)) return res(out);
          if (Date.now() - started > timeoutMs) return rej(new Error(`timed out waiting on kubectl ${args.join(' ')}; output:\n${out}\nstderr:\n${err}`));
          setTimeout(poll, 25);
        };
        poll();
      });
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTPS request with the sim's CA; the sim's token unless `token` says otherwise (null: none). */
export function rawRequest(
  sim: SimProcess | SimEndpoint,
  method: string,
  path: string,
  options: { body?: string | Buffer; headers?: Record<string, string>; token?: string | null } = {},
): Promise<RawResponse> {
  const endpoint = 'endpoint' in sim ? sim.endpoint : sim;
  const url = new URL(path, endpoint.server);
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  const token = options.token === undefined ? endpoint.token : options.token;
  if (token !== null) headers['Authorization'] = `Bearer ${token}`;
  if (options.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(options.body));
  const send = url.protocol === 'https:' ? request : httpRequest;
  return new Promise((res, rej) => {
    const req = send(url, { method, headers, ...(endpoint.caPem ? { ca: endpoint.caPem } : {}) }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (c: Buffer) => chunks.push(c));
      response.on('end', () => res({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', rej);
    });
    req.on('error', rej);
    req.end(options.body);
  });
}

/** Objects as kubectl prints them: read field by field, so loosely typed on purpose. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

/**
 * One `controller-lab sim` process for the tests of a file: started before them, stopped after
 * them (an unclean exit fails the file). Its fields are filled in by the time the tests run.
 */
export function simForFile(): SimProcess {
  const sim = {} as SimProcess;
  before(async () => void Object.assign(sim, await startSimProcess()));
  after(async () => assert.equal(await sim.stop(), 0, `sim exited uncleanly:\n${sim.output()}`));
  return sim;
}

/**
 * Creates a namespace for one test (tests run concurrently, each in its own) and waits, as e2e
 * suites do, until the cluster's controller manager has added its objects (the `kube-root-ca.crt`
 * ConfigMap and the `default` ServiceAccount), so what a test lists next does not depend on timing.
 */
export async function createNamespace(sim: SimProcess, name: string): Promise<string> {
  await kubectlOk(sim, ['create', 'namespace', name]);
  await waitForNamespaceDefaults(sim, name);
  return name;
}

/** Polls until `namespace` holds kube-root-ca.crt and the default ServiceAccount (10 s at most). */
export async function waitForNamespaceDefaults(sim: SimProcess, namespace: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (const path of [`/api/v1/namespaces/${namespace}/configmaps/kube-root-ca.crt`, `/api/v1/namespaces/${namespace}/serviceaccounts/default`]) {
    while ((await rawRequest(sim, 'GET', path)).status !== 200) {
      if (Date.now() > deadline) throw new Error(`${path} did not appear within 10 s`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}
