import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BROKEN_PROGRAM, EXITING_PROGRAM, NEVER_STARTED_PROGRAM, GO_EXAMPLE, GO_EXAMPLE_SCENARIO, GO_MODULE, PANICKING_PROGRAM, PANIC_SCENARIO, PERIODIC_PROGRAM, SILENT_PROGRAM, UNSERVED_KIND_PROGRAM, UNWRAPPED_PROGRAM, writeGoProgram } from '../runtime/support/goPrograms.ts';

// `controller-lab run` on a Go controller-runtime program, as a user runs it: the CLI in a child
// Node, `go build` for real, the program against the simulated cluster. Go must be on the PATH.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(ROOT, 'src/cli/main.ts');

function run(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, 'run', ...args], { cwd: options.cwd ?? ROOT, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

interface TraceLine {
  seq: number;
  controller: string;
  key: string;
  trigger: { type: string; kind: string; key: string; resourceVersion: string; via: string }[];
  cacheResourceVersion: string;
  writes: { verb: string; kind: string; namespace?: string; name: string; resourceVersion?: string }[];
  requeue: { action: string };
  durationMs: number;
}

test('run on a Go program directory with --sim --scenario --until-idle --trace mirrors the ConfigMaps and traces every reconcile', { timeout: 600_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-go-run-'));
  try {
    const trace = join(dir, 'trace.jsonl');
    const r = await run([`./${relative(ROOT, GO_EXAMPLE)}`, '--sim', '--scenario', GO_EXAMPLE_SCENARIO, '--until-idle', '--trace', trace, '--timeout', '120']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^controller configmap-mirror: for ConfigMap, 1 worker\(s\)$/m);
    assert.match(r.stdout, /^run: \d+ reconciles, 0 errors, 0 requeues in [\d.]+ s$/m);
    const lines = readFileSync(trace, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as TraceLine);
    assert.deepEqual(lines.map((l) => l.seq), lines.map((_, i) => i + 1));
    assert.ok(lines.every((l) => l.controller === 'configmap-mirror'));
    const created = lines.find((l) => l.key === 'default/app-config' && l.writes.some((w) => w.verb === 'create'));
    assert.ok(created, 'app-config was mirrored');
    assert.deepEqual(created.writes.map((w) => `${w.verb} ${w.kind} ${w.namespace}/${w.name}`), ['create ConfigMap default/app-config-mirror']);
    assert.match(created.writes[0]?.resourceVersion ?? '', /^\d+$/);
    assert.equal(created.trigger[0]?.type, 'ADDED');
    // The scenario's edit: a MODIFIED trigger through For, and the mirror updated.
    const edited = lines.find((l) => l.key === 'default/app-config' && l.trigger.some((t) => t.type === 'MODIFIED' && t.via === 'for'));
    assert.ok(edited, 'the edit of app-config was reconciled');
    assert.deepEqual(edited.writes.map((w) => w.verb), ['update']);
    // The scenario deleted a mirror: its owner's reconcile saw that through Owns and made it again.
    assert.ok(lines.some((l) => l.key === 'default/db-config' && l.trigger.some((t) => t.type === 'DELETED' && t.key === 'default/db-config-mirror' && t.via === 'owns')));
    assert.ok(!lines.some((l) => l.writes.some((w) => w.name === 'unrelated-mirror')), 'an unlabelled ConfigMap is left alone');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('run takes a Go main.go file, and a Go package path from inside the module, with --workloads', { timeout: 600_000 }, async () => {
  const file = await run([join(relative(ROOT, GO_EXAMPLE), 'main.go'), '--sim', '--workloads', '--until-idle', '--timeout', '120']);
  assert.equal(file.code, 0, file.stderr);
  assert.match(file.stdout, /^controller configmap-mirror: for ConfigMap/m);
  const byPath = await run(['github.com/controller-lab/controller-lab/go/examples/configmap-mirror', '--sim', '--until-idle', '--timeout', '120'], { cwd: GO_MODULE });
  assert.equal(byPath.code, 0, byPath.stderr);
  assert.match(byPath.stdout, /^controller configmap-mirror: for ConfigMap/m);
});

test('without Go on the PATH, run says to install Go', async () => {
  const r = await run([`./${relative(ROOT, GO_EXAMPLE)}`, '--sim', '--until-idle'], { env: { PATH: '/nonexistent' } });
  assert.equal(r.code, 1);
  assert.match(r.stderr, /the Go toolchain was not found \(`go` is not on the PATH\)/);
  // A version new enough for the module, not Debian's golang-go, which is years older.
  assert.match(r.stderr, /install Go 1\.25 or newer from https:\/\/go\.dev\/doc\/install/);
  assert.doesNotMatch(r.stderr, /golang-go/);
});

test('a Go program that does not build: go\'s output with the file:line of the error', { timeout: 600_000 }, async () => {
  const program = writeGoProgram(BROKEN_PROGRAM);
  try {
    const r = await run([program.dir, '--sim', '--until-idle']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /go build failed:/);
    assert.ok(r.stderr.includes(`${program.mainFile}:4:2: undefined: undefinedThing`), r.stderr);
  } finally {
    program.dispose();
  }
});

test('run --sim without --scenario in a project init go set up names its starter scenario, which has the CRDs an empty cluster lacks', { timeout: 600_000 }, async (t) => {
  const project = mkdtempSync(join(tmpdir(), 'cl-starter-'));
  t.after(() => rmSync(project, { recursive: true, force: true }));
  writeFileSync(join(project, 'go.mod'), 'module example.com/starter\n\ngo 1.25\n');
  writeFileSync(join(project, 'main.go'), BROKEN_PROGRAM);
  mkdirSync(join(project, 'controller-lab'));
  writeFileSync(join(project, 'controller-lab', 'scenario.yaml'), 'seed: 1\n');
  const r = await run(['.', '--sim', '--until-idle'], { cwd: project });
  assert.match(r.stdout, /^no --scenario: the simulated cluster starts without the project's CRDs; its starter scenario has them: --scenario controller-lab\/scenario\.yaml$/m, r.stdout);
  const given = await run(['.', '--sim', '--scenario', 'controller-lab/scenario.yaml', '--until-idle'], { cwd: project });
  assert.doesNotMatch(given.stdout, /no --scenario/);
});

test('a Go program that never connects, or never calls controllerlab.Wrap, fails after the connect timeout saying how to add it', { timeout: 600_000 }, async () => {
  for (const source of [SILENT_PROGRAM, UNWRAPPED_PROGRAM]) {
    const program = writeGoProgram(source);
    try {
      const started = performance.now();
      const r = await run([program.dir, '--sim', '--until-idle', '--connect-timeout', '3']);
      assert.equal(r.code, 1, r.stdout);
      assert.match(r.stderr, /connect failed: the Go program did not connect to Controller Lab within 3 s/);
      assert.match(r.stderr, /controllerlab\.Wrap\(mgr\)/);
      assert.match(r.stderr, /import "github\.com\/controller-lab\/controller-lab\/go\/controllerlab"/);
      // It failed on the timeout given, not on some later one (the build included).
      assert.ok(performance.now() - started < 100_000);
    } finally {
      program.dispose();
    }
  }
});

test('a Go program that connects but never starts its manager is named within seconds, not waited on in silence', { timeout: 600_000 }, async () => {
  const program = writeGoProgram(NEVER_STARTED_PROGRAM);
  try {
    // --timeout counts from the end of the build; the notice comes at 15 s.
    const r = await run([program.dir, '--sim', '--until-idle', '--timeout', '20']);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stderr, /^controller-lab run: still waiting after 15 s: the informers have not synced: no controller has started yet; does the program reach mgr\.Start\(ctx\)\?$/m);
  } finally {
    program.dispose();
  }
});

test('a Go program that exits before it connects: its own output (it got the arguments after --), then why it matters', { timeout: 600_000 }, async () => {
  const program = writeGoProgram(EXITING_PROGRAM);
  try {
    const r = await run([program.dir, '--sim', '--until-idle', '--', '--leader-elect=false', 'x']);
    assert.equal(r.code, 1);
    // Its own output first, with the arguments after `--`.
    assert.match(r.stderr, /no cluster for me; args: \[--leader-elect=false x\]\n/);
    assert.match(r.stderr, /the Go controller process \(pid \d+\) exited \(code 3\) outside any reconcile before it connected to Controller Lab/);
    assert.match(r.stderr, /controllerlab\.Wrap\(mgr\)/);
  } finally {
    program.dispose();
  }
});

test('a reconcile that panics is reported as controller-runtime reports it, retried, and the run goes on', { timeout: 600_000 }, async () => {
  const program = writeGoProgram(PANICKING_PROGRAM);
  const dir = mkdtempSync(join(tmpdir(), 'cl-go-panic-'));
  try {
    const scenario = join(dir, 'scenario.yaml');
    writeFileSync(scenario, PANIC_SCENARIO);
    const r = await run([program.dir, '--sim', '--scenario', scenario, '--until-idle', '--timeout', '120']);
    assert.equal(r.code, 1, r.stderr);
    const boom = r.stdout.match(/^#\d+ ConfigMap default\/boom .*→ error: panic: kaboom: cannot mirror boom \[recovered\]/gm) ?? [];
    assert.ok(boom.length >= 2, `the panicking key is retried:\n${r.stdout}`);
    assert.match(r.stdout, /^#\d+ ConfigMap default\/fine \(ADDED rv \d+\) → ok/m);
    // The panic's stack, with the line of the user's code.
    assert.ok(r.stderr.includes(`${program.mainFile}:`), r.stderr);
    assert.match(r.stderr, /stopped with 1 key\(s\) still failing: ConfigMap default\/boom \(#\d+: panic: kaboom/);
  } finally {
    program.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--until-idle ends a Go program whose only keys left wait on a requeueAfter that wrote nothing', { timeout: 600_000 }, async () => {
  const program = writeGoProgram(PERIODIC_PROGRAM);
  const dir = mkdtempSync(join(tmpdir(), 'cl-go-periodic-'));
  try {
    const scenario = join(dir, 'scenario.yaml');
    writeFileSync(scenario, PANIC_SCENARIO);
    const r = await run([program.dir, '--sim', '--scenario', scenario, '--until-idle', '--timeout', '120']);
    assert.equal(r.code, 0, `${r.stdout}${r.stderr}`);
    assert.match(r.stdout, /^#\d+ ConfigMap default\/fine \(ADDED rv \d+\) → ok, requeue after 30000 ms/m);
    assert.doesNotMatch(r.stdout, /\(requeue\) → /, 'the run ended before any 30 s requeue came round');
  } finally {
    program.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('run on a Go program that watches a kind with no CRD: one line within seconds naming the kind and how to install it, and --until-idle stops instead of waiting two minutes', { timeout: 600_000 }, async () => {
  const program = writeGoProgram(UNSERVED_KIND_PROGRAM);
  try {
    const started = Date.now();
    const r = await run([`./${relative(ROOT, program.dir)}`, '--sim', '--until-idle', '--timeout', '100']);
    const seconds = (Date.now() - started) / 1000;
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /^controller-lab run: the cluster does not serve kind Widget \(example\.com\/v1\); install its CustomResourceDefinition before the controller starts: `kubectl apply -f config\/crd\/bases`, or `include: \[\.\.\/config\/crd\/bases\]` in the scenario/m);
    assert.equal(r.stderr.match(/does not serve kind Widget/g)?.length, 1, `said once:\n${r.stderr}`);
    assert.match(r.stderr, /^controller-lab run: stopped: the controller cannot sync while the cluster does not serve widgets\.example\.com \(said above\)$/m);
    assert.doesNotMatch(r.stderr, /gave up after/);
    // Built, then the grace period for a CRD the controller would install itself, not controller-runtime's two minutes.
    const builtIn = Number(/^built in (\d+) s$/m.exec(r.stdout)?.[1]);
    assert.ok(seconds - builtIn < 60, `stopped ${seconds.toFixed(0)} s after the start, ${builtIn} s of which building`);
  } finally {
    program.dispose();
  }
});
