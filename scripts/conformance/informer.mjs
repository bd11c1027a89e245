// node scripts/conformance/informer.mjs [--target real|sim|both] [--only REGEX] [--speed-objects N]
//                                        [--api-server-arg=--watch-cache=false ...]
// The product's informer against kube-apiserver v1.28.4 alone (etcd, no controller manager) and
// against `controller-lab sim --api-server-only`: the same tests (test/informerConformance), given
// each server by a kubeconfig in the environment, so a difference between the two shows. Then the
// sync-speed figure beside client-go's (N ConfigMaps, default 10 000; 0 leaves it out). Writes
// test-output/conformance/informer-<target>.{json,md}: each test's verdict, and the figures
// measured (sync times, list pages). --api-server-arg (repeatable) is given to kube-apiserver, to run
// the same tests against it set up otherwise (without its watch cache, say).
// Build first: node scripts/conformance/build.mjs (kube-apiserver) and npm run build (the sim).
import { execFileSync } from 'node:child_process';
import { existsSync, globSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { parseArgs } from 'node:util';
import { KUBERNETES_VERSION, OUTPUT, REPO, binary } from './paths.mjs';
import { realHistory, serveHistoryControl, simHistory } from './historyControl.mjs';
import { stopAll } from './processes.mjs';
import { measureSyncSpeed } from './syncSpeed.mjs';

const { values } = parseArgs({ options: { target: { type: 'string', default: 'both' }, only: { type: 'string' }, 'speed-objects': { type: 'string', default: '10000' }, 'api-server-arg': { type: 'string', multiple: true, default: [] } } });
const apiServerArgs = values['api-server-arg'];
const speedObjects = Number(values['speed-objects']);
const targets = values.target === 'both' ? ['real', 'sim'] : [values.target];
if (!targets.every((t) => t === 'real' || t === 'sim')) {
  console.error('usage: informer.mjs [--target real|sim|both] [--only REGEX] [--speed-objects N]');
  process.exit(2);
}
const TARGETS = {
  real: { what: `kube-apiserver ${KUBERNETES_VERSION} alone (etcd, no controller manager)${apiServerArgs.length ? `, ${apiServerArgs.join(' ')}` : ''}` },
  sim: { what: 'controller-lab sim --api-server-only' },
};

// The CLI serves the sim and is what `controller-lab watch` runs in the credentials tests.
const needed = [[join(REPO, 'dist', 'cli.cjs'), 'npm run build']];
if (targets.includes('real')) needed.push([binary('kube-apiserver'), 'node scripts/conformance/build.mjs']);
for (const [file, how] of needed) {
  if (!existsSync(file)) {
    console.error(`${file} is missing: run ${how} first`);
    process.exit(2);
  }
}

const files = globSync('test/informerConformance/*.test.ts', { cwd: REPO }).sort().map((f) => join(REPO, f));

/** Runs the test files against one server; resolves with each test's verdict. */
async function runTests(env, log) {
  Object.assign(process.env, env);
  const verdicts = [];
  const stream = run({ files, concurrency: 1, testNamePatterns: values.only ? [values.only] : undefined });
  stream.on('test:pass', (d) => {
    // A file none of whose tests --only picked passes as a test of its own: not one of ours.
    if (d.details.type === 'suite' || d.name === d.file) return;
    verdicts.push({ name: d.name, file: relative(REPO, d.file ?? ''), state: d.skip || d.todo ? 'skipped' : 'passed', seconds: Math.round(d.details.duration_ms / 100) / 10 });
  });
  stream.on('test:fail', (d) => {
    if (d.details.type === 'suite') return;
    const error = d.details.error;
    const failure = String(error?.cause?.message ?? error?.message ?? error).split('\n').slice(0, 3).join(' ');
    verdicts.push({ name: d.name, file: relative(REPO, d.file ?? ''), state: 'failed', seconds: Math.round(d.details.duration_ms / 100) / 10, failure });
  });
  await new Promise((resolve, reject) => {
    stream.compose(spec).on('data', (chunk) => log.write(chunk)).on('end', resolve).on('error', reject);
  });
  return verdicts;
}

function writeReport(name, meta, verdicts, measures) {
  const passed = verdicts.filter((v) => v.state === 'passed').length;
  writeFileSync(join(OUTPUT, `${name}.json`), `${JSON.stringify({ ...meta, passed, total: verdicts.length, tests: verdicts, measures }, null, 2)}\n`);
  const cell = (t) => String(t).replace(/\|/g, '\\|').replace(/\n/g, ' ').slice(0, 300);
  const md = [
    `# Informer conformance: ${meta.target}`,
    '',
    `${passed} of ${verdicts.length} tests passed against ${meta.target} on ${meta.date} (commit ${meta.commit}, \`${meta.command}\`, ${meta.minutes} min).`,
    '',
    '| test | verdict | s | first failure line |',
    '|---|---|---|---|',
    ...verdicts.map((v) => `| ${cell(v.name)} | ${v.state} | ${v.seconds} | ${cell(v.failure ?? '')} |`),
    '',
    ...(measures.length ? ['| measured | value |', '|---|---|', ...measures.map((m) => `| ${cell(`${m.test}: ${m.name}`)} | ${m.value === null ? '' : `${m.value} ${m.unit}`.trim()} |`), ''] : []),
  ].join('\n');
  writeFileSync(join(OUTPUT, `${name}.md`), md);
  return { passed, total: verdicts.length };
}

mkdirSync(OUTPUT, { recursive: true });
let failed = false;
for (const target of targets) {
  const name = `informer-${target}`;
  const dir = join(OUTPUT, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const say = (m) => console.log(`conformance ${name}: ${m}`);
  const started = Date.now();
  let control;
  try {
    const cluster = target === 'real'
      ? await (await import('./realCluster.mjs')).startRealCluster(dir, say, { controllerManager: false, apiServerArgs })
      : await (await import('./simCluster.mjs')).startSim(dir, 'api-server-only', say);
    control = await serveHistoryControl(target === 'real' ? realHistory(cluster) : simHistory(cluster));
    const measuresFile = join(dir, 'measures.jsonl');
    say(`running ${files.length} test files`);
    const verdicts = await runTests({
      CONTROLLER_LAB_CONFORMANCE_KUBECONFIG: cluster.kubeconfig,
      CONTROLLER_LAB_CONFORMANCE_CONTROL: control.url,
      CONTROLLER_LAB_CONFORMANCE_MEASURES: measuresFile,
    }, process.stdout);
    const measures = existsSync(measuresFile) ? readFileSync(measuresFile, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
    if (speedObjects > 0) {
      try {
        measures.push(...measureSyncSpeed(cluster.kubeconfig, { count: speedObjects, log: say }));
      } catch (err) {
        // A figure, not a verdict: said, and left out.
        say(`no sync-speed figure: ${err?.message ?? err}`);
      }
    }
    const meta = {
      target: TARGETS[target].what,
      kubernetes: KUBERNETES_VERSION,
      date: new Date().toISOString().slice(0, 10),
      commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO, encoding: 'utf8' }).trim(),
      command: `node scripts/conformance/informer.mjs --target ${target}${values.only ? ` --only '${values.only}'` : ''}${speedObjects !== 10_000 ? ` --speed-objects ${speedObjects}` : ''}${apiServerArgs.map((a) => ` --api-server-arg=${a}`).join('')}`,
      minutes: Math.round((Date.now() - started) / 6000) / 10,
    };
    const { passed, total } = writeReport(name, meta, verdicts, measures);
    if (total === 0 || passed !== total) failed = true;
    say(`${passed} of ${total} passed in ${meta.minutes} min; results in ${join(OUTPUT, name)}.{json,md}`);
  } catch (err) {
    failed = true;
    say(`could not run: ${err?.stack ?? err}`);
  } finally {
    control?.close();
    await stopAll();
    rmSync(join(dir, 'etcd'), { recursive: true, force: true });
  }
}
process.exit(failed ? 1 : 0);
