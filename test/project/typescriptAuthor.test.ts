import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// A TypeScript author's first hour, as README's "TypeScript controllers in your own project" tells
// it: the packed product installed into a fresh npm project outside the checkout, README's
// controller and tsconfig written as shown, the editor's typecheck, then `controller-lab run`.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const MINUTES = 60_000;

/** The first fenced block of `lang` in README after `marker`. */
function readmeBlock(marker: string, lang: string): string {
  const at = README.indexOf(marker);
  assert.ok(at >= 0, `README says ${marker}`);
  const block = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(README.slice(at))?.[1];
  assert.ok(block, `README has a ${lang} block after ${marker}`);
  return block;
}

test('README\'s TypeScript controller, in a fresh npm project with the packed product, typechecks, passes its simtest test and runs', { timeout: 10 * MINUTES }, () => {
  const work = mkdtempSync(join(tmpdir(), 'cl-ts-author-'));
  try {
    const packed = spawnSync('npm', ['pack', '--ignore-scripts', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(packed.status, 0, packed.stderr);
    const tarball = join(work, readdirSync(work).find((f) => f.endsWith('.tgz')) ?? '');
    const project = join(work, 'my-operator');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'my-operator', version: '1.0.0', private: true, type: 'module' }, null, 2));
    const installed = spawnSync('npm', ['install', '--save-dev', tarball, '--no-audit', '--no-fund'], { cwd: project, encoding: 'utf8' });
    assert.equal(installed.status, 0, installed.stderr);

    writeFileSync(join(project, 'tsconfig.json'), readmeBlock('TypeScript controllers in your own project', 'json'));
    writeFileSync(join(project, 'my-controller.ts'), readmeBlock('A controller is a TypeScript or JavaScript module', 'ts'));
    // simtest's types, as an editor sees them in a TypeScript test.
    writeFileSync(join(project, 'simtest-types.ts'), [
      "import { ControllerRunError, startSim, type Reconcile, type Sim } from 'controller-lab/simtest';",
      "const sim: Sim = await startSim({ manifests: ['config/crd/bases'], workloads: false });",
      "const reconciles: Reconcile[] = (await sim.runController('my-controller.ts', { timeoutSeconds: 30 })).reconciles;",
      "const failed: boolean = new Error() instanceof ControllerRunError;",
      'void reconciles; void failed;',
      '',
    ].join('\n'));
    // The checkout's TypeScript stands in for the project's own (README installs it from the registry).
    const tsc = spawnSync(process.execPath, [TSC, '--noEmit', '-p', project], { cwd: project, encoding: 'utf8' });
    assert.equal(tsc.status, 0, `the editor's typecheck passes:\n${tsc.stdout}${tsc.stderr}`);

    writeFileSync(join(project, 'scenario.yaml'), [
      'objects:',
      '  - apiVersion: apps/v1',
      '    kind: ReplicaSet',
      '    metadata: { name: web, namespace: default }',
      '    spec:',
      '      replicas: 1',
      '      selector: { matchLabels: { app: web } }',
      '      template: { metadata: { labels: { app: web } }, spec: { containers: [{ name: c, image: nginx }] } }',
      '',
    ].join('\n'));
    // README's test of it with controller-lab/simtest, on the PATH's Node (Debian's 20 where there is one).
    writeFileSync(join(project, 'my-controller.test.mjs'), readmeBlock('Tests: `controller-lab/simtest`', 'js'));
    const node = spawnSync('/usr/bin/node', ['--version']).status === 0 ? '/usr/bin/node' : process.execPath;
    // Without this runner's NODE_TEST_CONTEXT, which would send the child's results here instead of to its stdout.
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    const tested = spawnSync(node, ['--test', 'my-controller.test.mjs'], { cwd: project, env, encoding: 'utf8', timeout: 2 * MINUTES });
    assert.equal(tested.status, 0, `README's test passes:\n${tested.stdout}${tested.stderr}`);
    assert.match(tested.stdout, /^(# pass|ℹ pass) 1$/m);

    const ran = spawnSync(join(project, 'node_modules/.bin/controller-lab'), ['run', 'my-controller.ts', '--sim', '--scenario', 'scenario.yaml', '--until-idle', '--timeout', '60'], { cwd: project, encoding: 'utf8', timeout: 2 * MINUTES });
    assert.equal(ran.status, 0, `${ran.stdout}${ran.stderr}`);
    assert.match(ran.stdout, /^#1 ReplicaSet default\/web \(ADDED rv \d+\) → ok/m);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
