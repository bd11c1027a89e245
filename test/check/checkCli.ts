// `controller-lab check` as a user runs it: the built command (dist/cli.cjs, what `npx
// controller-lab` runs) in a child process from the repository's root, its JSON report read back.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = join(REPO_ROOT, 'dist/cli.cjs');

export interface ReportedFinding {
  class: string;
  summary: string;
  plan: { kind: string };
  replay: string;
}

export interface CheckResult {
  code: number;
  stdout: string;
  stderr: string;
  findings: ReportedFinding[];
  runs: number;
  planned: number;
  skipped: number;
  durationMs: number;
}

/** Runs `controller-lab check PROGRAM --scenario SCENARIO --json … [extra…]`; paths are from the repository's root. */
export async function check(program: string, scenario: string, extra: string[] = []): Promise<CheckResult> {
  const dir = mkdtempSync(join(tmpdir(), 'controller-lab-check-test-'));
  const json = join(dir, 'report.json');
  try {
    const { code, stdout, stderr } = await cli(['check', program, '--scenario', scenario, '--json', json, ...extra]);
    let report = { findings: [] as ReportedFinding[], runs: 0, planned: 0, skipped: 0, durationMs: 0 };
    try {
      report = JSON.parse(readFileSync(json, 'utf8')) as typeof report;
    } catch {
      // No report: the check failed before it had one (stderr says why).
    }
    return { code, stdout, stderr, ...report };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs a finding's replay command (`controller-lab check … --plan '…'`) as a shell would. */
export async function replay(command: string): Promise<{ code: number; stdout: string; stderr: string }> {
  // A Go program's replay may set variables first (`ENABLE_WEBHOOKS=false controller-lab check …`).
  const env = /^(?:[A-Za-z_]\w*=(?:'[^']*'|\S)* )*/.exec(command)?.[0] ?? '';
  if (!command.startsWith('controller-lab ', env.length)) throw new Error(`not a controller-lab command: ${command}`);
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  return run('sh', ['-c', `${env}${quote(process.execPath)} ${quote(CLI)} ${command.slice(env.length + 'controller-lab '.length)}`]);
}

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(process.execPath, [CLI, ...args]);
}

function run(command: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(command, args, { cwd: REPO_ROOT, maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** What a failed assertion shows: the check's own words. */
export function transcript(r: { stdout: string; stderr: string }): string {
  return `\n--- stdout\n${r.stdout.slice(-6000)}\n--- stderr\n${r.stderr.slice(-3000)}`;
}
