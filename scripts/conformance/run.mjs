// node scripts/conformance/run.mjs --target real|sim [--mode workloads|api-server-only] [--set conformance|wider] [--only REGEX]
// Starts the target, runs the committed spec set (specs.txt; --set wider: specs-wider.txt) from Kubernetes' e2e binary against
// it, prints each spec's result and the count, and writes test-output/conformance/<name>.{json,md}.
// Build the binaries first: node scripts/conformance/build.mjs.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { KUBERNETES_VERSION, OUTPUT, REPO, SPECS_FILE, WIDER_SPECS_FILE, binary } from './paths.mjs';
import { loadSpecs } from './specs.mjs';
import { runE2E, readReport, suiteFailures } from './e2eRun.mjs';
import { stopAll } from './processes.mjs';
import { printResults, results, writeResults } from './report.mjs';

const { values } = parseArgs({
  options: {
    target: { type: 'string' },
    mode: { type: 'string', default: 'workloads' },
    only: { type: 'string' },
    set: { type: 'string', default: 'conformance' },
  },
});
if ((values.target !== 'real' && values.target !== 'sim') || (values.set !== 'conformance' && values.set !== 'wider')) {
  console.error('usage: run.mjs --target real|sim [--mode workloads|api-server-only] [--set conformance|wider] [--only REGEX]');
  process.exit(2);
}
for (const b of ['e2e.test', 'kube-apiserver', 'kube-controller-manager']) {
  if (!existsSync(binary(b))) {
    console.error(`${binary(b)} is missing: run node scripts/conformance/build.mjs first`);
    process.exit(2);
  }
}

const wider = values.set === 'wider';
const name = `${values.target === 'real' ? 'real' : `sim-${values.mode}`}${wider ? '-wider' : ''}`;
const dir = join(OUTPUT, name);
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const say = (m) => console.log(`conformance ${name}: ${m}`);

let specs = loadSpecs(wider ? WIDER_SPECS_FILE : SPECS_FILE);
if (values.only) specs = specs.filter((s) => new RegExp(values.only).test(s));
const started = Date.now();

try {
  const cluster = values.target === 'real'
    ? await (await import('./realCluster.mjs')).startRealCluster(dir, say)
    : await (await import('./simCluster.mjs')).startSim(dir, values.mode, say);
  say(`running ${specs.length} specs (log: ${join(dir, 'e2e.log')})`);
  const { code, report } = await runE2E({
    kubeconfig: cluster.kubeconfig,
    specs,
    dir,
    // Without a controller manager no namespace gets a default ServiceAccount, and the framework
    // would wait two minutes for one before each spec: in that mode each spec meets the API as is.
    extraArgs: values.target === 'sim' && values.mode === 'api-server-only' ? ['--e2e-verify-service-account=false'] : [],
    onProgress: ({ ended, failed }) => say(`${ended} of ${specs.length} specs ended, ${failed} failed (${Math.round((Date.now() - started) / 60000)} min)`),
  });
  if (!existsSync(report)) throw new Error(`the e2e binary exited with ${code} and wrote no report; see ${join(dir, 'e2e.log')}`);
  for (const f of suiteFailures(report)) say(`suite failure: ${f}`);
  const specResults = results(specs, readReport(report));
  printResults(specResults);
  const meta = {
    target: values.target === 'real' ? `kube-apiserver + kube-controller-manager ${KUBERNETES_VERSION}` : `controller-lab sim --${values.mode}`,
    kubernetes: KUBERNETES_VERSION,
    date: new Date().toISOString().slice(0, 10),
    commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO, encoding: 'utf8' }).trim(),
    command: `node scripts/conformance/run.mjs --target ${values.target}${values.target === 'sim' ? ` --mode ${values.mode}` : ''}${wider ? ' --set wider' : ''}${values.only ? ` --only '${values.only}'` : ''}`,
    minutes: Math.round((Date.now() - started) / 6000) / 10,
  };
  const { passed, total } = writeResults(name, meta, specResults);
  console.log(`\n${passed} of ${total} passed against ${meta.target} in ${meta.minutes} min; results in ${join(OUTPUT, name)}.{json,md}`);
} finally {
  await stopAll();
  rmSync(join(dir, 'etcd'), { recursive: true, force: true });
}
