import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { GoProjectSetupError, setUpGoProject, setupLines } from '../../../../src/setup/index.ts';
import { GoCommandFailed, GoNotFound, systemGo, type GoTool } from '../../../../src/setup/goProject/goTool.ts';
import { MODULE_PATH } from '../../../../src/setup/goProject/shippedModule.ts';
import { checkScenario } from '../../../../src/sim/scenario/scenarioRunner.ts';
import { SimCluster } from '../../../../src/sim/simCluster.ts';
import { FakeClock } from '../../../../src/shared/clock.ts';
import { scaffoldCopy } from './fixtures.ts';

// `init go` on a kubebuilder v4.16 scaffold, end to end but offline: `go mod edit` and gofmt are the
// real ones; `go mod tidy` (which downloads) does what it does for a module it finds imported
// under a replace: requires it at a placeholder version.

const PLACEHOLDER = 'v0.0.0-00010101000000-000000000000';
/** As if `controller-lab` were installed (simtest's way to it). */
const WITH_CLI = { CONTROLLER_LAB: 'npx controller-lab' };

function offlineGo(ran: string[]): GoTool {
  const real = systemGo();
  return {
    async go(args, cwd) {
      ran.push(`go ${args.join(' ')}`);
      if (args[0] === 'mod' && args[1] === 'tidy') return real.go(['mod', 'edit', `-require=${MODULE_PATH}@${PLACEHOLDER}`], cwd);
      // It downloads every module the project needs: recorded only.
      if (args[0] === 'mod' && args[1] === 'vendor') return '';
      return real.go(args, cwd);
    },
    async gofmt(files, cwd) {
      ran.push(`gofmt -w ${files.join(' ')}`);
      return real.gofmt(files, cwd);
    },
  };
}

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: memcacheds.cache.example.com }
spec:
  group: cache.example.com
  names: { kind: Memcached, listKind: MemcachedList, plural: memcacheds, singular: memcached }
  scope: Namespaced
  versions: [{ name: v1alpha1, served: true, storage: true, schema: { openAPIV3Schema: { type: object, x-kubernetes-preserve-unknown-fields: true } } }]
`;

/** The scaffold plus the config/ folders kubebuilder writes (CRD as `make manifests` would). */
function project(t: { after(fn: () => void): void }): string {
  const dir = scaffoldCopy(t);
  const files: Record<string, string> = {
    'config/crd/bases/cache.example.com_memcacheds.yaml': CRD,
    'config/rbac/kustomization.yaml': 'resources:\n- service_account.yaml\n',
    'config/rbac/service_account.yaml': 'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: controller-manager\n  namespace: system\n',
    'config/samples/kustomization.yaml': '## Append samples of your project ##\nresources:\n- cache_v1alpha1_memcached.yaml\n',
    'config/samples/cache_v1alpha1_memcached.yaml': 'apiVersion: cache.example.com/v1alpha1\nkind: Memcached\nmetadata:\n  name: memcached-sample\nspec:\n  # TODO(user): Add fields here\n',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** Every file under `dir` with its bytes. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.set(relative(dir, path), readFileSync(path, 'base64'));
    }
  };
  walk(dir);
  return out;
}

const FIRST_RUN = [
  'controller-lab/go: a copy of Controller Lab\'s Go module v0.1.0 (packages controllerlab, simtest)',
  'controller-lab/README.md: what controller-lab/ is and when it can go',
  `go.mod: require ${MODULE_PATH} v0.1.0 (replace => ./controller-lab/go)`,
  'cmd/main.go: mgr = controllerlab.Wrap(mgr) after ctrl.NewManager',
  'internal/controller/suite_test.go: envtest.Environment → simtest.Environment (envtest import removed; getFirstFoundEnvTestBinaryDir removed, simtest has no binaries to find)',
  'internal/webhook/v1alpha1/webhook_suite_test.go: envtest.Environment → simtest.Environment (envtest stays imported for the rest it uses; getFirstFoundEnvTestBinaryDir removed, simtest has no binaries to find)',
  'go.mod: go mod tidy (go.sum completed)',
  'Makefile: test runs without setup-envtest (no KUBEBUILDER_ASSETS) and names any suite still on envtest',
  'Dockerfile: COPY controller-lab/go/ before go mod download',
  '.dockerignore: re-includes controller-lab/go/go.mod and go.sum',
  'controller-lab/scenario.yaml: starter scenario (includes config/crd/bases, config/rbac, config/samples)',
  'config/samples/cache_v1alpha1_memcached.yaml: spec: {} for Memcached memcached-sample (kubebuilder\'s sample has a null spec, which the API server refuses when the CRD requires spec)',
  '.vscode/launch.json: debug configurations "memcached-operator (simulated cluster)", "memcached-operator (simulated cluster, Go line breakpoints through Delve)"',
];

test('init go on a kubebuilder scaffold: every edit, once; a second run changes nothing, byte for byte', async (t) => {
  const dir = project(t);
  const ran: string[] = [];
  const first = await setUpGoProject({ dir, go: offlineGo(ran), env: WITH_CLI });
  assert.deepEqual(setupLines(first.changes), FIRST_RUN);
  assert.deepEqual(first.next, [
    'make test',
    // Its webhooks need nothing: Controller Lab serves them on the simulated cluster it starts.
    'controller-lab run ./cmd --sim --scenario controller-lab/scenario.yaml --until-idle',
    'controller-lab check ./cmd --scenario controller-lab/scenario.yaml',
  ]);
  assert.equal(first.program, './cmd');
  assert.deepEqual(ran, [
    'go mod edit -json',
    `go mod edit -replace=${MODULE_PATH}=./controller-lab/go`,
    'gofmt -w cmd/main.go internal/controller/suite_test.go internal/webhook/v1alpha1/webhook_suite_test.go',
    'go mod edit -json minimum.mod',
    'go mod edit -json',
    'go mod tidy',
    'go mod edit -json',
    `go mod edit -require=${MODULE_PATH}@v0.1.0`,
  ]);
  const goMod = readFileSync(join(dir, 'go.mod'), 'utf8');
  assert.ok(goMod.includes(`\t${MODULE_PATH} v0.1.0\n`) && goMod.endsWith(`\nreplace ${MODULE_PATH} => ./controller-lab/go\n`), goMod);
  assert.ok(readFileSync(join(dir, 'controller-lab/go/go.mod'), 'utf8').startsWith(`module ${MODULE_PATH}\n`));

  // The starter scenario includes the project's config/ and checks against its CRD.
  const scenario = checkScenario(new SimCluster({ clock: new FakeClock() }), readFileSync(first.starterScenario, 'utf8'), { fileName: 'controller-lab/scenario.yaml', baseDir: dirname(first.starterScenario) });
  assert.deepEqual(scenario.objects.map((o) => `${o.object.kind} ${o.object.metadata.name}`), ['CustomResourceDefinition memcacheds.cache.example.com', 'ServiceAccount controller-manager', 'Memcached memcached-sample']);

  const before = snapshot(dir);
  ran.length = 0;
  const second = await setUpGoProject({ dir, go: offlineGo(ran), env: WITH_CLI });
  assert.deepEqual(snapshot(dir), before);
  assert.deepEqual(ran, ['go mod edit -json']);
  assert.deepEqual(setupLines(second.changes).filter((l) => !l.startsWith('unchanged: ') && !l.startsWith('by hand: ')), []);
  assert.ok(setupLines(second.changes).includes('unchanged: cmd/main.go (already calls controllerlab.Wrap)'));
});

test('run from a folder inside the module (internal/controller), it sets up the module, as go finds it, and says to cd there first', async (t) => {
  const dir = project(t);
  const inside = join(dir, 'internal', 'controller');
  const r = await setUpGoProject({ dir: inside, go: offlineGo([]), env: WITH_CLI });
  assert.equal(r.moduleDir, dir);
  assert.deepEqual(setupLines(r.changes), FIRST_RUN);
  assert.equal(r.next[0], `cd ${dir}`);
  assert.equal(r.next[1], 'make test');
});

test('a dry run says what would change and writes nothing', async (t) => {
  const dir = project(t);
  const before = snapshot(dir);
  const ran: string[] = [];
  const r = await setUpGoProject({ dir, go: offlineGo(ran), dryRun: true, env: WITH_CLI });
  assert.deepEqual(snapshot(dir), before);
  // Reads only: the project's go.mod, and what the module asks of it (the copy's go.mod-to-be).
  assert.deepEqual(ran, ['go mod edit -json', 'go mod edit -json minimum.mod', 'go mod edit -json']);
  assert.deepEqual(setupLines(r.changes), FIRST_RUN);
});

test('a dry run on a project below the versions the module needs names each version go mod tidy will raise, and why', async (t) => {
  const dir = project(t);
  spawnSync('go', ['mod', 'edit', '-go=1.24.0', '-require=sigs.k8s.io/controller-runtime@v0.22.4', '-require=k8s.io/client-go@v0.34.1', '-require=k8s.io/apimachinery@v0.34.1', '-require=k8s.io/api@v0.34.1'], { cwd: dir });
  const r = await setUpGoProject({ dir, go: offlineGo([]), dryRun: true, env: WITH_CLI });
  const tidy = setupLines(r.changes).filter((l) => l.startsWith('go.mod: go mod tidy'));
  assert.deepEqual(tidy, [
    'go.mod: go mod tidy will raise go 1.24.0 → 1.25.0, k8s.io/api v0.34.1 → v0.35.0, k8s.io/apimachinery v0.34.1 → v0.35.0, k8s.io/client-go v0.34.1 → v0.35.0, sigs.k8s.io/controller-runtime v0.22.4 → v0.23.0 (the lowest versions Controller Lab\'s Go module works with), and modules they need',
  ]);
});

test('a refresh: a copy from another version (or edited) is made the shipped one again, and says from what', async (t) => {
  const dir = project(t);
  await setUpGoProject({ dir, go: offlineGo([]), env: WITH_CLI });
  spawnSync('go', ['mod', 'edit', `-require=${MODULE_PATH}@v0.0.9`], { cwd: dir });
  writeFileSync(join(dir, 'controller-lab/go/simtest/simtest.go'), 'package simtest\n');
  const ran: string[] = [];
  const r = await setUpGoProject({ dir, go: offlineGo(ran), env: WITH_CLI });
  const lines = setupLines(r.changes);
  assert.ok(lines.includes('controller-lab/go: refreshed to Controller Lab\'s Go module v0.1.0 (was v0.0.9): 1 file changed'), lines.join('\n'));
  assert.ok(lines.includes(`go.mod: require ${MODULE_PATH} v0.1.0 (replace => ./controller-lab/go)`));
  assert.ok(ran.includes(`go mod edit -require=${MODULE_PATH}@v0.1.0`));
  assert.ok(readFileSync(join(dir, 'go.mod'), 'utf8').includes(`\t${MODULE_PATH} v0.1.0\n`));
});

test('not in a Go module is a usage error; no go on the PATH is a failing step that says how to install it', async (t) => {
  const dir = scaffoldCopy(t);
  const outside = mkdtempSync(join(tmpdir(), 'cl-no-module-'));
  t.after(() => rmSync(outside, { recursive: true, force: true }));
  await assert.rejects(setUpGoProject({ dir: outside }), (err: unknown) => err instanceof GoProjectSetupError && err.usage && /cl-no-module-\w+ is not in a Go module \(no go\.mod there or above\)/.test(err.message));
  await assert.rejects(setUpGoProject({ dir: join(dir, 'nowhere') }), (err: unknown) => err instanceof GoProjectSetupError && err.usage && /nowhere: no such folder$/.test(err.message));
  const noGo: GoTool = { go: () => Promise.reject(new GoNotFound('go')), gofmt: () => Promise.reject(new GoNotFound('gofmt')) };
  await assert.rejects(setUpGoProject({ dir, go: noGo }), (err: unknown) => err instanceof GoProjectSetupError && !err.usage && /^go is not on the PATH: install Go 1\.25 or newer \(https:\/\/go\.dev\/doc\/install\)/.test(err.message));
});

test('without controller-lab on the PATH or $CONTROLLER_LAB, it says how the test suites will find it', async (t) => {
  const dir = project(t);
  const r = await setUpGoProject({ dir, go: offlineGo([]), dryRun: true, env: { PATH: '/nonexistent' } });
  assert.ok(setupLines(r.changes).includes('by hand: PATH: controller-lab is not on it, and the test suites (simtest) run `controller-lab sim`: npm install -g controller-lab, or set CONTROLLER_LAB to the command (CONTROLLER_LAB="npx controller-lab")'));
});

// kubebuilder's deploy-image plugin: the manager's Deployment sets the operand's image, which the
// controller reads from its environment (every reconcile fails without it).
const MANAGER_WITH_ENV = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: controller-manager
  namespace: system
spec:
  template:
    spec:
      containers:
      - command:
        - /manager
        name: manager
        env:
        - name: BUSYBOX_IMAGE
          value: busybox:1.36.1
        - name: POD_NAMESPACE
          valueFrom:
            fieldRef:
              fieldPath: metadata.namespace
`;

test('the manager Deployment\'s env with values: the run and check commands, the launch configurations and the scenario\'s comment set it', async (t) => {
  const dir = project(t);
  mkdirSync(join(dir, 'config/manager'), { recursive: true });
  writeFileSync(join(dir, 'config/manager/manager.yaml'), MANAGER_WITH_ENV);
  const setup = await setUpGoProject({ dir, go: offlineGo([]), env: WITH_CLI });
  assert.deepEqual(setup.next.slice(1), [
    'BUSYBOX_IMAGE=busybox:1.36.1 controller-lab run ./cmd --sim --scenario controller-lab/scenario.yaml --until-idle',
    'BUSYBOX_IMAGE=busybox:1.36.1 controller-lab check ./cmd --scenario controller-lab/scenario.yaml',
  ]);
  const launch = JSON.parse(readFileSync(join(dir, '.vscode/launch.json'), 'utf8')) as { configurations: { env?: Record<string, string> }[] };
  assert.deepEqual(launch.configurations.map((c) => c.env), [
    { BUSYBOX_IMAGE: 'busybox:1.36.1' },
    { BUSYBOX_IMAGE: 'busybox:1.36.1' },
  ]);
  assert.match(readFileSync(setup.starterScenario, 'utf8'), /^# {3}\(BUSYBOX_IMAGE: as config\/manager\/manager\.yaml sets it for the manager\)$/m);
});

test('a project with a conversion webhook is told the simulated cluster does not convert between versions', async (t) => {
  const dir = project(t);
  mkdirSync(join(dir, 'api/v2'), { recursive: true });
  // As kubebuilder's `create webhook --conversion --spoke v2` writes it.
  writeFileSync(
    join(dir, 'api/v2/memcached_conversion.go'),
    'package v2\n\nimport (\n\t"sigs.k8s.io/controller-runtime/pkg/conversion"\n)\n\n// ConvertTo converts this Memcached (v2) to the Hub version (v1alpha1).\nfunc (src *Memcached) ConvertTo(dstRaw conversion.Hub) error {\n\treturn nil\n}\n',
  );
  const setup = await setUpGoProject({ dir, go: offlineGo([]), env: WITH_CLI, dryRun: true });
  const lines = setupLines(setup.changes).filter((l) => l.startsWith('by hand: '));
  assert.equal(lines.length, 1, lines.join('\n'));
  assert.match(lines[0] ?? '', /^by hand: api\/v2\/memcached_conversion\.go: the simulated cluster calls no conversion webhook .*test ConvertTo and ConvertFrom by calling them/);
});

test('a project that vendors its modules gets vendor/ synced after go mod tidy, or every go build fails on inconsistent vendoring', async (t) => {
  const dir = project(t);
  mkdirSync(join(dir, 'vendor'));
  writeFileSync(join(dir, 'vendor/modules.txt'), '# sigs.k8s.io/controller-runtime v0.25.0\n## explicit; go 1.26.0\n');
  const ran: string[] = [];
  const r = await setUpGoProject({ dir, go: offlineGo(ran), env: WITH_CLI });
  assert.deepEqual(ran.slice(ran.indexOf('go mod tidy')), ['go mod tidy', 'go mod edit -json', `go mod edit -require=${MODULE_PATH}@v0.1.0`, 'go mod vendor']);
  assert.ok(setupLines(r.changes).includes('vendor/modules.txt: go mod vendor (the project vendors its modules: Controller Lab\'s copy and what go mod tidy changed)'), setupLines(r.changes).join('\n'));
  const dry = await setUpGoProject({ dir: project(t), go: offlineGo([]), dryRun: true, env: WITH_CLI });
  assert.ok(!setupLines(dry.changes).some((l) => l.startsWith('vendor/')), 'no vendor/ in that project');
});

test('two modules of one go.work workspace set up: go.work replaces the module once, or every build there fails on conflicting replacements', async (t) => {
  const ws = mkdtempSync(join(tmpdir(), 'init-go-ws-'));
  t.after(() => rmSync(ws, { recursive: true, force: true }));
  for (const [name, module] of [['op', 'example.com/op'], ['op2', 'example.com/op2']]) {
    cpSync(project(t), join(ws, name!), { recursive: true });
    spawnSync('go', ['mod', 'edit', `-module=${module}`], { cwd: join(ws, name!) });
  }
  writeFileSync(join(ws, 'go.work'), 'go 1.26.0\n\nuse (\n\t./op\n\t./op2\n)\n');
  const first = await setUpGoProject({ dir: join(ws, 'op'), go: offlineGo([]), env: WITH_CLI });
  assert.ok(!setupLines(first.changes).some((l) => l.includes('go.work')), 'one copy in the workspace: nothing to do');
  const second = await setUpGoProject({ dir: join(ws, 'op2'), go: offlineGo([]), env: WITH_CLI });
  assert.ok(setupLines(second.changes).includes(`../go.work: replace ${MODULE_PATH} => ./op2/controller-lab/go (2 modules of the workspace replace it with copies of their own, which go refuses in a workspace)`), setupLines(second.changes).join('\n'));
  const work = JSON.parse(spawnSync('go', ['work', 'edit', '-json'], { cwd: ws, encoding: 'utf8' }).stdout) as { Replace: { Old: { Path: string }; New: { Path: string } }[] };
  assert.deepEqual(work.Replace.map((r) => `${r.Old.Path} => ${r.New.Path}`), [`${MODULE_PATH} => ./op2/controller-lab/go`]);
  const again = await setUpGoProject({ dir: join(ws, 'op'), go: offlineGo([]), env: WITH_CLI });
  assert.ok(!setupLines(again.changes).some((l) => l.includes('go.work')));
});

test('a project that already replaces the module with its own clone keeps that replace, and is told the copy goes unused', async (t) => {
  const dir = project(t);
  spawnSync('go', ['mod', 'edit', `-replace=${MODULE_PATH}=../controller-lab-clone/go`], { cwd: dir });
  const first = await setUpGoProject({ dir, go: offlineGo([]), env: WITH_CLI });
  assert.ok(setupLines(first.changes).includes(`go.mod: require ${MODULE_PATH} v0.1.0 (replace => ../controller-lab-clone/go kept: yours; the copy in ./controller-lab/go is used once that replace goes)`), setupLines(first.changes).join('\n'));
  const replaces = (JSON.parse(spawnSync('go', ['mod', 'edit', '-json'], { cwd: dir, encoding: 'utf8' }).stdout) as { Replace: { New: { Path: string } }[] }).Replace;
  assert.deepEqual(replaces.map((r) => r.New.Path), ['../controller-lab-clone/go']);
  const second = await setUpGoProject({ dir, go: offlineGo([]), env: WITH_CLI });
  assert.ok(setupLines(second.changes).includes(`unchanged: go.mod (requires ${MODULE_PATH} v0.1.0, replace => ../controller-lab-clone/go: yours, kept)`), setupLines(second.changes).join('\n'));
});

test('a go mod tidy that fails (a go too old for the project) says what init go had changed before it stopped', async (t) => {
  const dir = project(t);
  const real = systemGo();
  const tooOld: GoTool = {
    go: (args, cwd) => (args[1] === 'tidy' ? Promise.reject(new GoCommandFailed('go mod tidy', 'go: go.mod requires go >= 1.27.0 (running go 1.26.8; GOTOOLCHAIN=local)')) : real.go(args, cwd)),
    gofmt: (files, cwd) => real.gofmt(files, cwd),
  };
  await assert.rejects(setUpGoProject({ dir, go: tooOld, env: WITH_CLI }), (err: unknown) => err instanceof GoProjectSetupError && !err.usage && err.message === [
    'go mod tidy failed:',
    'go: go.mod requires go >= 1.27.0 (running go 1.26.8; GOTOOLCHAIN=local)',
    'it had changed controller-lab/go, controller-lab/README.md, go.mod, cmd/main.go, internal/controller/suite_test.go, internal/webhook/v1alpha1/webhook_suite_test.go before it stopped; run init go again once that works: it keeps what is done and finishes the rest',
  ].join('\n'));
});
