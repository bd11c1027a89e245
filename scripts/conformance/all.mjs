// `npm run conformance`: the whole measurement, one step after another — build Kubernetes (cached
// after the first time) and this checkout's dist/, the spec set against the real control plane (it must pass all), against the sim
// with --workloads and with --api-server-only, the wider set against both (--set wider), the raw-request differential, and the product's
// informer against kube-apiserver alone and against the sim — then a summary.
// Each step writes its own test-output/conformance/<name>.{json,md}; a failing step does not stop
// the next. Exits non-zero when the build fails, when the real server does not pass every spec (the
// harness, not the sim, is then wrong), or when the informer fails a test against the real server.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OUTPUT, REPO } from './paths.mjs';

const node = process.execPath;
const step = (script, ...args) => {
  const started = Date.now();
  const { status } = spawnSync('nice', ['-n', '10', node, join(REPO, 'scripts', 'conformance', script), ...args], { stdio: 'inherit' });
  console.log(`conformance: ${script} ${args.join(' ')} took ${Math.round((Date.now() - started) / 60000)} min`);
  return status;
};
const result = (name) => {
  const file = join(OUTPUT, `${name}.json`);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
};

if (step('build.mjs') !== 0) process.exit(1);
if (spawnSync(node, [join(REPO, 'scripts', 'build.mjs')], { stdio: 'inherit' }).status !== 0) process.exit(1);
step('run.mjs', '--target', 'real');
step('run.mjs', '--target', 'sim', '--mode', 'workloads');
step('run.mjs', '--target', 'sim', '--mode', 'api-server-only');
step('run.mjs', '--target', 'real', '--set', 'wider');
step('run.mjs', '--target', 'sim', '--mode', 'workloads', '--set', 'wider');
step('raw/diff.mjs');
step('informer.mjs');

const real = result('real');
console.log('\nconformance summary:');
for (const name of ['real', 'sim-workloads', 'sim-api-server-only', 'real-wider', 'sim-workloads-wider']) {
  const r = result(name);
  console.log(`  ${name}: ${r ? `${r.passed} of ${r.total} specs passed` : 'no result'}`);
}
const raw = result('raw-diff');
console.log(`  raw-request differential: ${raw ? `${raw.alike} of ${raw.total} probes answered alike` : 'no result'}`);
for (const [name, what] of [['informer-real', 'kube-apiserver alone'], ['informer-sim', 'sim --api-server-only']]) {
  const r = result(name);
  console.log(`  informer against ${what}: ${r ? `${r.passed} of ${r.total} tests passed` : 'no result'}`);
}
const informerReal = result('informer-real');
const informerHolds = informerReal && informerReal.total > 0 && informerReal.passed === informerReal.total;
process.exit(real && real.passed === real.total && informerHolds ? 0 : 1);
