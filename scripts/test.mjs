// `npm test`: the whole pyramid, in order — typecheck, lint, unit (plain Node), go (the Go module's
// tests against the sim), check (`controller-lab check` finds planted bugs, and no false ones), conformance (real kubectl and client-node against the sim, and the informer's conformance tests), envtest
// (controller-runtime's own envtest suites against the sim), debug-adapter protocol tests, a Go
// author's first hour (the packed product in a kubebuilder project), integration tests inside a
// real VS Code extension host, and the UI check in Chromium against the packaged .vsix.
// `npm test -- <stage>…` runs only those stages. First, the set-up those stages need on a fresh
// machine (scripts/testSetup.mjs). Ends with one line: `N passed, N failed`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, globSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { MINIMUM_MODFILE } from './testSetup.mjs';

process.chdir(join(dirname(fileURLToPath(import.meta.url)), '..'));

const STAGES = ['typecheck', 'lint', 'unit', 'go', 'check', 'conformance', 'envtest', 'dap', 'project', 'integration', 'ui'];
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
for (const stage of wanted) if (!STAGES.includes(stage)) throw new Error(`unknown stage ${stage}; stages: ${STAGES.join(', ')}`);
const selected = wanted.length > 0 ? STAGES.filter((s) => wanted.includes(s)) : STAGES;

/** Runs a command, streaming its output; resolves with its exit code and what it printed. */
function run(command, args, { env = {} } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let out = '';
    const tee = (stream) => (d) => {
      out += d.toString();
      stream.write(d);
    };
    child.stdout.on('data', tee(process.stdout));
    child.stderr.on('data', tee(process.stderr));
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

const node = process.execPath;

/**
 * node --test over some folders: the spec reporter for people, and a TAP copy in a file whose
 * closing `# pass N` / `# fail N` lines give the counts (test output cannot fake those: the runner
 * indents everything a test prints).
 */
async function nodeTests(patterns, extra = []) {
  const files = patterns.flatMap((p) => globSync(p)).sort();
  if (files.length === 0) {
    console.log(`no test files match ${patterns.join(' ')}: nothing to run`);
    return { passed: 0, failed: 0 };
  }
  const dir = mkdtempSync(join(tmpdir(), 'controller-lab-tap-'));
  const tap = join(dir, 'results.tap');
  try {
    const { code } = await run(node, ['--test', '--test-reporter=spec', '--test-reporter-destination=stdout',
      '--test-reporter=tap', `--test-reporter-destination=${tap}`, ...extra, ...files]);
    const summary = readFileSync(tap, 'utf8');
    const count = (label) => {
      const all = [...summary.matchAll(new RegExp(`^# ${label} (\\d+)$`, 'gm'))];
      return Number(all.at(-1)?.[1] ?? 0);
    };
    const passed = count('pass');
    let failed = count('fail') + count('cancelled');
    // A runner that died before its summary still failed.
    if (code !== 0 && failed === 0) failed = 1;
    return { passed, failed, failures: tapFailures(summary) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The failed tests of a TAP report, each with the first line of its error: printed again at the
 * end of the run, where a log cut to its tail still shows them.
 */
function tapFailures(tap) {
  const lines = tap.split('\n');
  const failures = [];
  lines.forEach((line, i) => {
    const m = /^\s*not ok \d+ - (.*)$/.exec(line);
    if (!m) return;
    const end = lines.findIndex((l, j) => j > i && l.trim() === '...');
    const block = lines.slice(i + 1, end < 0 ? undefined : end);
    const field = (name) => {
      const at = block.findIndex((l) => l.trimStart().startsWith(`${name}: `));
      if (at < 0) return '';
      const value = block[at].trimStart().slice(name.length + 2);
      return (/^[|>]-?$/.test(value) ? (block[at + 1] ?? '').trim() : value).replace(/^'|'$/g, '');
    };
    // A suite whose tests failed is named by those tests already.
    if (field('failureType') === 'subtestsFailed') return;
    const location = field('location');
    failures.push(`${m[1]}${location ? ` (${location})` : ''}: ${field('error')}`);
  });
  return failures;
}

/** A check that is all or nothing (typecheck, lint): one pass or one failure. */
async function gate(command, args) {
  const { code } = await run(command, args);
  return code === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 };
}

const npx = (bin) => `node_modules/.bin/${bin}`;

/**
 * The informer's conformance tests (test/informerConformance, written against kube-apiserver in
 * `npm run conformance`) against `controller-lab sim --api-server-only`, counted test by test.
 */
async function informerConformanceOnSim() {
  const report = join('test-output', 'conformance', 'informer-sim.json');
  rmSync(report, { force: true });
  const { code } = await run(node, ['scripts/conformance/informer.mjs', '--target', 'sim', '--speed-objects', '0']);
  const tests = existsSync(report) ? JSON.parse(readFileSync(report, 'utf8')).tests : [];
  const failures = tests.filter((t) => t.state !== 'passed').map((t) => `${t.file}: ${t.name}: ${t.failure ?? t.state}`);
  const passed = tests.length - failures.length;
  // A harness that died before its report still failed.
  return { passed, failed: failures.length || (code === 0 ? 0 : 1), failures };
}

/**
 * `go test -race -v` in go/ (the Go module controller-runtime authors add) and `go test -v` in
 * examples/go-guestbook (a kubebuilder-layout project using it), with go's own output;
 * the counts are its `--- PASS` / `--- FAIL` lines (subtests included). A build failure or a
 * panic that ends the run before any `--- FAIL` still counts as one failure.
 */
async function goTests() {
  if (spawnSync('go', ['version'], { stdio: 'ignore' }).error) {
    console.log('go not found on the PATH: install Go 1.26 or newer to run the Go module\'s tests');
    return { passed: 0, failed: 1 };
  }
  const module = await goTestCounts(['test', '-C', 'go', '-race', '-count=1', '-v', './...']);
  // What a user's project builds: the module's copy asks for its minimum versions (go/minimum.mod).
  const minimum = await run('go', ['vet', '-C', 'go', `-modfile=${MINIMUM_MODFILE}`, './...']);
  if (minimum.code === 0) console.log(`go vet on ${MINIMUM_MODFILE}: ok`);
  else module.failures.push(`go vet -modfile=${MINIMUM_MODFILE}: the Go module no longer builds on its minimum versions`);
  module[minimum.code === 0 ? 'passed' : 'failed'] += 1;
  // The kubebuilder-layout example: its Ginkgo suite against the simulated cluster (simtest).
  const example = await goTestCounts(['test', '-C', 'examples/go-guestbook', '-count=1', '-v', './...']);
  return {
    passed: module.passed + example.passed,
    failed: module.failed + example.failed,
    failures: [...module.failures, ...example.failures],
  };
}

/** Go tests and, in a Ginkgo suite, each spec (its `N Passed | M Failed` summary) are counted. */
async function goTestCounts(args) {
  const { code, out } = await run('go', args);
  let passed = (out.match(/^\s*--- PASS: /gm) ?? []).length;
  let failed = (out.match(/^\s*--- FAIL: /gm) ?? []).length;
  // Ginkgo colours its summary: drop the escape sequences before reading it.
  const plain = stripVTControlCharacters(out);
  for (const m of plain.matchAll(/(\d+) Passed \| (\d+) Failed/g)) {
    passed += Number(m[1]);
    failed += Number(m[2]);
  }
  if (code !== 0 && failed === 0) failed = 1;
  const failures = [...out.matchAll(/^\s*--- FAIL: (\S+)/gm)].map((m) => `go test ${m[1]}`);
  return { passed, failed, failures };
}

const stages = {
  typecheck: async () => {
    const a = await gate(npx('tsc'), ['--noEmit', '-p', '.']);
    const b = await gate(npx('tsc'), ['--noEmit', '-p', 'webview']);
    return { passed: a.passed + b.passed, failed: a.failed + b.failed };
  },
  lint: () => gate(npx('eslint'), ['--max-warnings=0', '.']),
  // Most unit files wait on sockets, child processes or timers, not the CPU: run three at a time.
  unit: () => nodeTests(['test/unit/**/*.test.ts'], ['--test-concurrency=3']),
  go: goTests,
  // `controller-lab check` on controllers with planted bugs and their correct twins (TypeScript and
  // Go) and on the examples, through the built command as a user runs it. Each check runs its
  // controller again and again, mostly waiting on it: two checks at a time.
  check: async () => {
    const build = await gate(node, ['scripts/build.mjs']);
    if (build.failed) return build;
    return nodeTests(['test/check/**/*.test.ts'], ['--test-concurrency=2']);
  },
  conformance: async () => {
    // One test runs the README's `npx controller-lab`, i.e. the built dist/cli.cjs.
    const build = await gate(node, ['scripts/build.mjs']);
    if (build.failed) return build;
    const clients = await nodeTests(['test/conformance/**/*.test.ts']);
    const informer = await informerConformanceOnSim();
    return { passed: clients.passed + informer.passed, failed: clients.failed + informer.failed, failures: [...(clients.failures ?? []), ...informer.failures] };
  },
  // controller-runtime's own envtest suites against the simulated cluster (scripts/envtestSuites.mjs).
  envtest: async () => {
    const { runEnvtestSuites } = await import('./envtestSuites.mjs');
    return runEnvtestSuites();
  },
  dap: async () => {
    const files = globSync('test/dap/**/*.test.ts');
    if (files.length === 0) return nodeTests(['test/dap/**/*.test.ts']);
    // The protocol tests drive the bundled adapter (dist/debugAdapter.cjs).
    const build = await gate(node, ['scripts/build.mjs']);
    if (build.failed) return build;
    return nodeTests(files);
  },
  // The packed product installed outside the checkout, in a kubebuilder project (test/project).
  project: async () => {
    const build = await gate(node, ['scripts/build.mjs']);
    if (build.failed) return build;
    return nodeTests(['test/project/**/*.test.ts']);
  },
  integration: async () => {
    // A test deleted from test/integration must not live on as a stale bundle.
    rmSync('out/test/suite', { recursive: true, force: true });
    const build = await gate(node, ['scripts/build.mjs']);
    if (build.failed) return build;
    const { runIntegration } = await import('./vscodeHost/runIntegration.mjs');
    return runIntegration();
  },
  ui: async () => {
    const pkg = await gate(node, ['scripts/package.mjs']);
    if (pkg.failed) return pkg;
    const { runUiChecks } = await import('../test/ui/run.mjs');
    return runUiChecks();
  },
};

const results = [];
{
  // What the selected stages need on a fresh machine (scripts/testSetup.mjs): README's test command is the whole set-up.
  console.log('\n━━━ setup ━━━');
  const started = Date.now();
  let result = { passed: 1, failed: 0 };
  try {
    const { setUpFor } = await import('./testSetup.mjs');
    await setUpFor(selected);
  } catch (err) {
    console.log(`setup failed: ${err instanceof Error ? err.message : String(err)}`);
    result = { passed: 0, failed: 1 };
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  results.push({ stage: 'setup', ...result, seconds });
  console.log(`━━━ setup: ${result.failed ? 'failed' : 'done'} (${seconds} s)`);
}
for (const stage of selected) {
  console.log(`\n━━━ ${stage} ━━━`);
  const started = Date.now();
  let result;
  try {
    result = await stages[stage]();
  } catch (err) {
    console.log(`${stage} stage crashed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    result = { passed: 0, failed: 1 };
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  results.push({ stage, ...result, seconds });
  console.log(`━━━ ${stage}: ${result.passed} passed, ${result.failed} failed (${seconds} s)`);
}

console.log('\nstage         passed  failed  seconds');
for (const r of results) console.log(`${r.stage.padEnd(13)} ${String(r.passed).padStart(6)}  ${String(r.failed).padStart(6)}  ${r.seconds.padStart(7)}`);
const failures = results.flatMap((r) => (r.failures ?? []).map((f) => `${r.stage}: ${f}`));
if (failures.length > 0) console.log(`\nfailed:\n${failures.map((f) => `  ${f}`).join('\n')}`);
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
