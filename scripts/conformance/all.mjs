// `npm run conformance`: the whole measurement, one step after another — build Kubernetes (cached
// after the first time) and this checkout's dist/, the spec set against the real control plane (it must pass all), against the sim
// with --workloads and with --api-server-only, and the raw-request differential — then a summary.
// Each step writes its own test-output/conformance/<name>.{json,md}; a failing step does not stop
// the next. Exits non-zero when the build fails or the real server does not pass every spec (the
// harness, not the sim, is then wrong).
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
step('raw/diff.mjs');

const real = result('real');
console.log('\nconformance summary:');
for (const name of ['real', 'sim-workloads', 'sim-api-server-only']) {
  const r = result(name);
  console.log(`  ${name}: ${r ? `${r.passed} of ${r.total} specs passed` : 'no result'}`);
}
const raw = result('raw-diff');
console.log(`  raw-request differential: ${raw ? `${raw.alike} of ${raw.total} probes answered alike` : 'no result'}`);
process.exit(real && real.passed === real.total ? 0 : 1);
