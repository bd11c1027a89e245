// What `npm test` needs on a fresh machine of this project's kind (Debian, Node + npm, Go, kubectl,
// the npm registry, the Go module proxy and Debian apt), installed before the stages that need it.
// Each step is idempotent and takes a moment once done, so README's test command is the whole
// set-up: CI runs nothing else.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { systemPackages } from './systemPackages.mjs';

const say = (/** @type {string} */ m) => console.log(`setup: ${m}`);

/** Go ≥ 1.26 on the PATH, or a clear stop. */
export function goToolchain() {
  const r = spawnSync('go', ['version'], { encoding: 'utf8' });
  if (r.error) throw new Error('go is not on the PATH: install Go 1.26 or newer (https://go.dev/dl/) to run the Go tests');
  return r.stdout.trim();
}

/** Delve for the Go line-breakpoint tests, into $(go env GOBIN or GOPATH/bin). */
export function delve() {
  const version = /DELVE_VERSION = '(v[^']+)'/.exec(readFileSync('src/debug/go/delveBinary.ts', 'utf8'))?.[1];
  if (!version) throw new Error('src/debug/go/delveBinary.ts names no DELVE_VERSION');
  const gobin = execFileSync('go', ['env', 'GOBIN'], { encoding: 'utf8' }).trim() || join(execFileSync('go', ['env', 'GOPATH'], { encoding: 'utf8' }).trim(), 'bin');
  const dlv = join(gobin, 'dlv');
  const installed = existsSync(dlv) ? spawnSync(dlv, ['version'], { encoding: 'utf8' }).stdout ?? '' : '';
  if (installed.includes(`Version: ${version.slice(1)}`)) return;
  say(`installing dlv ${version} into ${gobin}`);
  execFileSync('go', ['install', `github.com/go-delve/delve/cmd/dlv@${version}`], { stdio: 'inherit', env: { ...process.env, GOBIN: gobin } });
}

/** The Go modules the tests build, with their tests compiled once, so no test's time limit pays for a cold build. */
export const GO_MODULES = [
  { dir: 'go', race: true },
  { dir: 'examples/go-guestbook', race: false },
  // The planted-bug controllers the check stage checks (only it: minutes of build for anyone else).
  { dir: 'test/check/go', race: false, stages: ['check'] },
];

/**
 * Downloads the modules and compiles every package and test binary (with -race where the go stage
 * uses it). On a cold machine this is the few minutes a first build of controller-runtime takes;
 * later, a second or two.
 */
export function warmGoBuilds(/** @type {string[] | undefined} */ stages) {
  const modules = GO_MODULES.filter((m) => !stages || !m.stages || m.stages.some((s) => stages.includes(s)));
  // Said before, not only after: on a cold machine nothing else is printed for minutes.
  say(`building the Go modules and their tests (${modules.map((m) => m.dir).join(', ')}): minutes the first time, seconds later…`);
  for (const { dir, race } of modules) {
    const started = Date.now();
    execFileSync('go', ['mod', 'download'], { cwd: dir, stdio: 'inherit' });
    execFileSync('go', ['build', './...'], { cwd: dir, stdio: 'inherit' });
    // `go test -run ^$` builds each test binary and runs nothing.
    execFileSync('go', ['test', ...(race ? ['-race'] : []), '-count=1', '-run', '^$', './...'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
    const seconds = Math.round((Date.now() - started) / 1000);
    if (seconds > 5) say(`built ${dir} and its tests in ${seconds} s`);
  }
  const started = Date.now();
  execFileSync('go', ['vet', `-modfile=${MINIMUM_MODFILE}`, './...'], { cwd: 'go', stdio: 'inherit' });
  const seconds = Math.round((Date.now() - started) / 1000);
  if (seconds > 5) say(`built go/ on its minimum versions (${MINIMUM_MODFILE}) in ${seconds} s`);
}

/**
 * The go.mod that `init go` gives a project's copy of the module: the lowest controller-runtime,
 * k8s.io and go versions it works with, so a project on them keeps its own.
 */
export const MINIMUM_MODFILE = 'minimum.mod';

/** The VS Code test host (code-server, cached under ~/.cache/controller-lab). */
export async function vscodeHost() {
  const { ensureCodeServer } = await import('./vscodeHost/install.mjs');
  ensureCodeServer({ log: say });
}

/** What each stage needs before it runs; a step runs once per `npm test`. */
const NEEDS = {
  unit: ['go', 'goBuilds'],
  go: ['go', 'goBuilds'],
  check: ['go', 'goBuilds'],
  conformance: [],
  envtest: ['go'],
  dap: ['go', 'delve', 'goBuilds'],
  project: ['go'],
  integration: ['systemPackages', 'vscodeHost'],
  ui: ['systemPackages', 'vscodeHost', 'go', 'delve', 'goBuilds'],
};

const STEPS = { systemPackages, go: goToolchain, delve, goBuilds: warmGoBuilds, vscodeHost };

/** Runs the set-up steps the selected stages need, in a fixed order. Throws with what is missing. */
export async function setUpFor(/** @type {string[]} */ stages) {
  const steps = new Set(stages.flatMap((s) => NEEDS[/** @type {keyof typeof NEEDS} */ (s)] ?? []));
  for (const name of /** @type {(keyof typeof STEPS)[]} */ (Object.keys(STEPS))) {
    // Only the Go builds depend on which stages run; the other steps take no argument.
    if (steps.has(name)) await (name === 'goBuilds' ? warmGoBuilds(stages) : STEPS[name]());
  }
}
