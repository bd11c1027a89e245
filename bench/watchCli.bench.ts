// The whole process as a user runs it: `controller-lab watch configmaps -A --exit-when-seen NS/NAME`,
// printing every event (to /dev/null), from spawn to exit — start-up, discovery, list, watch, exit;
// `controller-lab-quiet` is the same with `--output none` — against
// the parse limit's whole process (bench/watchCli/parseLimit.mjs: Node's HTTP client, JSON.parse
// and a Map), client-node's informer (bench/watchCli/clientNode.mjs) and client-go's shared
// informer (bench/client-go-informer, which exits after the same last event) over JSON and over
// protobuf. One server, one stream: N ConfigMaps listed, then E watch events, the last one adding
// the object every contender waits for. The CLI runs as shipped (esbuild bundle, minified). With
// a built dist/, it also says what `npx controller-lab`, as the README writes the command, adds to
// every run before ours starts.
//
//   npm run bench:watch-cli [-- --objects 10000 --events 100000 --reps 3 --contenders controller-lab,parse-limit --prof]

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { spawn } from 'node:child_process';
import { CLI_NODE_FLAGS, cliBuildOptions } from '../scripts/cliBuild.mjs';
import { canPin, pinSelf } from './lib/child.ts';
import { loadCaveat } from './lib/load.ts';
import { buildClientGoPeer, CLIENT_GO_ENV } from './lib/clientGoPeer.ts';
import { median, mb, ms, ratio, si } from './lib/stats.ts';
import { BENCH_NAMESPACE, renderStream, SENTINEL_NAME, startStreamServer } from './lib/streamServer.ts';
import { markdownTable, textTable } from './lib/table.ts';

const SELF = fileURLToPath(import.meta.url);
const ROOT = path.resolve(path.dirname(SELF), '..');
const CONTENDERS = ['parse-limit', 'controller-lab', 'controller-lab-quiet', 'client-node', 'client-go', 'client-go-protobuf'] as const;
type Contender = (typeof CONTENDERS)[number];

const { values } = parseArgs({
  options: {
    objects: { type: 'string' },
    events: { type: 'string' },
    reps: { type: 'string' },
    contenders: { type: 'string' },
    quick: { type: 'boolean' },
    prof: { type: 'boolean' },
  },
});

interface ProcessRun {
  wallMs: number;
  cpuMs: number;
  peakRssBytes: number;
}

/** Spawns `command` (pinned to `cpu` when possible) and measures it from spawn to exit with /usr/bin/time. */
function timeProcess(command: string[], work: string, cpu: number | undefined, env?: NodeJS.ProcessEnv): Promise<ProcessRun | string> {
  const timing = path.join(work, 'time.txt');
  const pinned = cpu !== undefined && canPin() ? ['taskset', '-c', String(cpu)] : [];
  const argv = ['/usr/bin/time', '-o', timing, '-f', '%e %U %S %M', ...pinned, ...command];
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(argv[0]!, argv.slice(1), { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], ...(env ? { env } : {}) });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      const wallMs = performance.now() - started;
      if (code !== 0) return resolve(`exit ${code}: ${err.trim().slice(-300)}`);
      const [, user, sys, rssKb] = readFileSync(timing, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number) as [number, number, number, number];
      resolve({ wallMs, cpuMs: (user + sys) * 1000, peakRssBytes: rssKb * 1024 });
    });
  });
}

/**
 * What `npx controller-lab` costs before our code runs: npm loads, finds the bin, starts it. Needs a
 * built dist/ (npm run build); undefined without one.
 */
async function measureNpx(): Promise<{ npxMs: number; nodeMs: number } | undefined> {
  const entry = path.join(ROOT, 'dist', 'cli.cjs');
  if (!existsSync(entry)) {
    console.error('  (no dist/cli.cjs: npx not measured; npm run build first)');
    return undefined;
  }
  const npx: number[] = [];
  const direct: number[] = [];
  for (let i = 0; i < 5; i++) {
    const a = await timeProcess(['npx', '--no-install', 'controller-lab', '--version'], work, undefined);
    const b = await timeProcess([process.execPath, entry, '--version'], work, undefined);
    if (typeof a === 'string' || typeof b === 'string') return undefined;
    npx.push(a.wallMs);
    direct.push(b.wallMs);
  }
  return { npxMs: median(npx), nodeMs: median(direct) };
}

/** The CLI bundled as `npm run build:prod` ships it (with --prof: not minified, so profiles name functions). */
async function bundleCli(): Promise<string> {
  const { build } = await import('esbuild');
  const outdir = path.join(ROOT, '.bench-output', 'cli');
  await build({ ...cliBuildOptions({ root: ROOT, outdir, production: !values.prof }), sourcemap: false });
  return path.join(outdir, 'cli.cjs');
}

const quick = values.quick ?? false;
const objects = Number(values.objects ?? (quick ? 2_000 : 10_000));
const events = Number(values.events ?? (quick ? 20_000 : 100_000));
const reps = Number(values.reps ?? (quick ? 1 : 3));
const only = values.contenders?.split(',');
const contenders = CONTENDERS.filter((c) => !only || only.includes(c));
const work = mkdtempSync(path.join(tmpdir(), 'cl-watch-cli-'));
const profDir = path.join(ROOT, '.bench-output', 'profiles');
if (values.prof) mkdirSync(profDir, { recursive: true });
const cli = await bundleCli();
const goPeer = contenders.some((c) => c.startsWith('client-go')) ? await buildClientGoPeer(work) : undefined;
const pinned = pinSelf(0);
const server = await startStreamServer();
const kubeconfig = path.join(work, 'kubeconfig');
writeFileSync(
  kubeconfig,
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'bench', cluster: { server: server.url, 'insecure-skip-tls-verify': true } }],
    users: [{ name: 'bench', user: { token: 'bench' } }],
    contexts: [{ name: 'bench', context: { cluster: 'bench', user: 'bench', namespace: BENCH_NAMESPACE } }],
    'current-context': 'bench',
  }),
);
const stream = renderStream({ objects, events, workload: 'configmaps', sentinel: true });
if (goPeer && contenders.includes('client-go-protobuf')) await goPeer.renderProtobuf(stream, work);
const wanted = `${BENCH_NAMESPACE}/${SENTINEL_NAME}`;
const node = process.execPath;
const loadBefore = loadavg()[0]!;
console.error(`watch CLI benchmark: ${si(objects, 0)} ConfigMaps, then ${si(events, 0)} watch events; ${reps} run(s), node ${process.version}`);

const profile = (name: string, rep: number): string[] => (values.prof ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`, `--cpu-prof-name=watch-cli-${name}-${rep}.cpuprofile`] : []);
const commands: Record<Contender, (rep: number) => string[] | undefined> = {
  'parse-limit': (rep) => [node, ...profile('parse-limit', rep), path.join(ROOT, 'bench/watchCli/parseLimit.mjs'), server.url, '/api/v1/configmaps', wanted],
  // As its shebang starts it: node with the command's V8 flags; it prints a line per event.
  'controller-lab': (rep) => [node, ...CLI_NODE_FLAGS, ...profile('controller-lab', rep), cli, 'watch', 'configmaps', '-A', '--exit-when-seen', wanted, '--kubeconfig', kubeconfig],
  'controller-lab-quiet': (rep) => [
    node,
    ...CLI_NODE_FLAGS,
    ...profile('controller-lab-quiet', rep),
    cli, 'watch', 'configmaps', '-A', '--output', 'none', '--exit-when-seen', wanted, '--kubeconfig', kubeconfig,
  ],
  'client-node': (rep) => [node, ...profile('client-node', rep), path.join(ROOT, 'bench/watchCli/clientNode.mjs'), kubeconfig, wanted],
  'client-go': () => (goPeer ? [goPeer.binary, 'run', '--server', server.url, '--resource', 'configmaps', '--namespace', '', '--objects', String(objects), '--events', String(events + 1)] : undefined),
  'client-go-protobuf': () => (goPeer ? [goPeer.binary, 'run', '--server', server.url, '--resource', 'configmaps', '--namespace', '', '--objects', String(objects), '--events', String(events + 1), '--protobuf'] : undefined),
};

const runs = new Map<Contender, ProcessRun[]>(contenders.map((c) => [c, []]));
const vsParse = new Map<Contender, number[]>(contenders.map((c) => [c, []]));
const cpuVsParse = new Map<Contender, number[]>(contenders.map((c) => [c, []]));
let launcher: { npxMs: number; nodeMs: number } | undefined;
try {
  for (let rep = 0; rep < reps; rep++) {
    const order = contenders.map((_, i) => contenders[(i + rep) % contenders.length]!);
    const run = new Map<Contender, ProcessRun>();
    for (const contender of order) {
      const command = commands[contender](rep);
      if (!command) continue;
      server.serve(stream);
      const r = await timeProcess(command, work, pinned ? 1 : undefined, contender.startsWith('client-go') ? CLIENT_GO_ENV : undefined);
      if (typeof r === 'string') {
        console.error(`  ${contender}: FAILED ${r}`);
        continue;
      }
      run.set(contender, r);
      runs.get(contender)!.push(r);
      console.error(`  ${contender.padEnd(15)} ${ms(r.wallMs).padStart(8)}  cpu ${ms(r.cpuMs)}  rss ${mb(r.peakRssBytes)}`);
    }
    const parse = run.get('parse-limit');
    for (const [c, r] of run) {
      if (!parse) continue;
      vsParse.get(c)!.push(parse.wallMs / r.wallMs);
      cpuVsParse.get(c)!.push(parse.cpuMs / r.cpuMs);
    }
  }
  if (contenders.includes('controller-lab')) launcher = await measureNpx();
} finally {
  await server.close();
  rmSync(work, { recursive: true, force: true });
}

const header = ['contender', 'start to exit', 'speed vs parse limit (≥ 0.9×)', 'CPU', 'CPU vs parse limit', 'peak RSS'];
const rows = contenders
  .filter((c) => runs.get(c)!.length > 0)
  .map((c) => {
    const rs = runs.get(c)!;
    return [c, ms(median(rs.map((r) => r.wallMs))), ratio(median(vsParse.get(c)!)), ms(median(rs.map((r) => r.cpuMs))), ratio(median(cpuVsParse.get(c)!)), mb(median(rs.map((r) => r.peakRssBytes)))];
  });
const loadAfter = loadavg()[0]!;
const machine = `${pinned ? 'server on CPU 0, contender on CPU 1; ' : ''}load average ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)}`;
console.log(`\nWhole process: ${si(objects, 0)} ConfigMaps listed, then ${si(events, 0)} watch events; spawn to exit; median of ${reps}; ${machine}\n`);
console.log(textTable(header, rows));
const caveat = loadCaveat(loadBefore, loadAfter, cpus().length);
if (caveat) console.log(`\n${caveat}`);
console.log(`\ncontroller-lab runs as its shebang starts it, node ${CLI_NODE_FLAGS.join(' ')}, printing a line per event to /dev/null (-quiet: --output none); the other Node contenders on Node's defaults.`);
if (launcher) {
  const ours = median(runs.get('controller-lab')!.map((r) => r.wallMs));
  const parse = median(runs.get('parse-limit')?.map((r) => r.wallMs) ?? [NaN]);
  console.log(
    `\nnpx controller-lab: ${ms(launcher.npxMs)} to print its version, against ${ms(launcher.nodeMs)} for node dist/cli.cjs (median of 5): ` +
      `npx adds ${ms(launcher.npxMs - launcher.nodeMs)} to every run before ours starts (${ratio(parse / (ours + launcher.npxMs - launcher.nodeMs))} the parse limit's speed with it).`,
  );
}
console.log(`\n--- markdown ---\n`);
console.log(markdownTable(header, rows));
if (values.prof) console.log(`\nCPU profiles: ${profDir}`);
