import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPLICASET_SCENARIO, runController, withTempDir } from './support/runController.ts';

// `controller-lab run` with controllers that break the process they run in: a synchronous endless
// loop, process.exit, a killed process, an error every time. Never a hang; each failure is named
// (controller, reconcile, key) in the output, the trace and the exit code, and the run goes on.

const SIM = ['--sim', '--scenario', REPLICASET_SCENARIO, '--until-idle', '--reconcile-timeout', '200', '--timeout', '45'];

/** A controller whose reconcile of default/web does `action` the first time only (a marker file survives restarts). */
function failsOnce(dir: string, action: string): string {
  return `import { defineController } from 'controller-lab';
import { existsSync, writeFileSync } from 'node:fs';
const marker = ${JSON.stringify(join(dir, 'failed-once'))};
export default defineController({
  name: 'fragile',
  for: { apiVersion: 'apps/v1', kind: 'ReplicaSet' },
  reconcile(req) {
    if (req.name === 'web' && !existsSync(marker)) {
      writeFileSync(marker, '');
      ${action}
    }
  },
});
`;
}

test('a reconcile stuck in a synchronous endless loop is stopped, reported with its key and time, retried after a backoff, and --until-idle ends', () => {
  withTempDir((dir) => {
    const source = failsOnce(dir, "ctx.log.info('about to loop'); while (true) {}").replace('reconcile(req) {', 'reconcile(req, ctx) {');
    const r = runController(dir, source, SIM);
    assert.notEqual(r.code, null, `the run hung:\n${r.stdout}\n${r.stderr}`);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /reconcile #1 ReplicaSet default\/web \(running \d+\.\d s\) of controller fragile blocked the controller host: no heartbeat for \d+\.\d s/);
    assert.match(r.stderr, /restarting it/);
    // What it logged before it blocked is not lost with its process.
    assert.match(r.stdout, /info \[#1 default\/web\]: about to loop/);
    const web = r.trace.filter((l) => l.key === 'default/web');
    assert.equal(web[0]?.error?.timedOut, true, JSON.stringify(web[0]));
    assert.match(web[0]?.error?.message ?? '', /blocked the controller host/);
    assert.deepEqual(web[0]?.requeue, { action: 'addRateLimited', reason: 'error' });
    // The restarted host ran it again, not at once but after the backoff, and then it succeeded.
    const retry = web[1];
    assert.ok(retry, `web was retried: ${JSON.stringify(r.trace)}`);
    assert.equal(retry.error, undefined);
    const failedAt = Date.parse(web[0]!.startedAt) + web[0]!.durationMs;
    assert.ok(Date.parse(retry.startedAt) - failedAt >= 900, `retried ${Date.parse(retry.startedAt) - failedAt} ms after the failure`);
    // The other key was reconciled too: the run went on.
    assert.ok(r.trace.some((l) => l.key === 'default/api' && !l.error));
    assert.match(r.stdout, /run: \d+ reconciles, 1 error, \d+ requeues, 1 host restart in \d+\.\d s/);
  });
});

test('process.exit(0) inside a reconcile fails that reconcile, named with its key, and the run exits non-zero', () => {
  withTempDir((dir) => {
    const r = runController(dir, failsOnce(dir, 'process.exit(0);'), SIM);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /#1 ReplicaSet default\/web \(ADDED rv \d+\) → error: process\.exit\(0\) called/);
    const web = r.trace.filter((l) => l.key === 'default/web');
    assert.match(web[0]?.error?.message ?? '', /process\.exit\(0\) called/);
    assert.equal(web[0]?.requeue.action, 'addRateLimited');
    // Retried with backoff in the same host, and then it worked; the other key was never disturbed.
    assert.equal(web[1]?.trigger[0]?.type, 'REQUEUE');
    assert.equal(web[1]?.error, undefined);
    assert.ok(r.trace.some((l) => l.key === 'default/api' && !l.error));
  });
});

test('a controller that kills its own process is reported with the reconcile it was running, and the host restarts', () => {
  withTempDir((dir) => {
    const r = runController(dir, failsOnce(dir, "process.kill(process.pid, 'SIGKILL');"), SIM);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /the controller host exited \(signal SIGKILL\) during reconcile #1 ReplicaSet default\/web/);
    assert.equal(r.stdout.match(/^controller fragile: /gm)?.length, 2, r.stdout);
    const web = r.trace.filter((l) => l.key === 'default/web');
    assert.match(web[0]?.error?.message ?? '', /the controller host exited \(signal SIGKILL\)/);
    assert.equal(web.at(-1)?.error, undefined);
    // Numbering goes on across the restart: one trace, one sequence.
    assert.deepEqual(r.trace.map((l) => l.seq), r.trace.map((_, i) => i + 1));
  });
});

test('a key that fails every time does not keep --until-idle waiting: the run ends, names it and exits 1', () => {
  withTempDir((dir) => {
    const source = `import { defineController } from 'controller-lab';
export default defineController({
  name: 'throws',
  for: { apiVersion: 'apps/v1', kind: 'ReplicaSet' },
  reconcile(req) { if (req.name === 'web') throw new Error('web is broken'); },
});
`;
    const r = runController(dir, source, SIM);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /stopped with 1 key\(s\) still failing: ReplicaSet default\/web \(#\d+: web is broken\)/);
    assert.doesNotMatch(r.stderr, /gave up after/);
    assert.match(r.stdout, /run: \d+ reconciles, \d+ errors, 0 requeues in \d+\.\d s/);
  });
});

test('an endless loop at the top of the controller module is reported, not waited for', () => {
  withTempDir((dir) => {
    const source = `import { defineController } from 'controller-lab';
while (true) {}
export default defineController({ name: 'top', for: { apiVersion: 'apps/v1', kind: 'ReplicaSet' }, reconcile() {} });
`;
    const r = runController(dir, source, SIM);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /blocked the controller host outside any reconcile: no heartbeat for \d+\.\d s/);
    assert.doesNotMatch(r.stderr, /gave up after/);
  });
});

test('a top-level await that never settles is named as the module not loading, not as a cluster that does not sync', () => {
  withTempDir((dir) => {
    const source = `import { defineController } from 'controller-lab';
await new Promise(() => {});
export default defineController({ name: 'stuck', for: { apiVersion: 'apps/v1', kind: 'ReplicaSet' }, reconcile() {} });
`;
    const r = runController(dir, source, ['--sim', '--until-idle', '--timeout', '20']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /^controller-lab run: still waiting after 15 s: the informers have not synced: the controller module has not finished loading; does its top-level code await something that never settles\?$/m);
    assert.match(r.stderr, /gave up after 20 s \(not idle: the informers have not synced: the controller module has not finished loading/);
  });
});

test('a controller that loaded but whose cluster never answers is named as waiting on the cluster, not on its module', async () => {
  // Accepts connections and never answers: the kernel completes them while the run blocks this thread.
  const silent = net.createServer(() => {});
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  try {
    withTempDir((dir) => {
      const kubeconfig = join(dir, 'kubeconfig');
      const server = `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`;
      writeFileSync(kubeconfig, `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "${server}"}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n`);
      const source = `import { defineController } from 'controller-lab';
export default defineController({ name: 'patient', for: { apiVersion: 'apps/v1', kind: 'ReplicaSet' }, reconcile() {} });
`;
      const r = runController(dir, source, ['--kubeconfig', kubeconfig, '--until-idle', '--timeout', '20']);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /^controller-lab run: still waiting after 15 s: the informers have not synced: the controller has loaded but the cluster has not answered its API discovery/m);
      assert.doesNotMatch(r.stderr, /has not finished loading/);
    });
  } finally {
    silent.close();
  }
});

test('a controller file that does not exist fails before a cluster starts', () => {
  withTempDir((dir) => {
    const r = runController(dir, undefined, ['--sim', '--until-idle']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /controller file not found: .*nosuch\.ts/);
    assert.doesNotMatch(r.stdout, /simulated cluster at/);
  });
});

test('a reconcile with huge output (100,000 log lines, a 20 MB line, a 5 MB error) is printed in full or cut short, never stalls the run', () => {
  withTempDir((dir) => {
    const action = `for (let i = 0; i < 100000; i++) ctx.log.info('line ' + i);
      ctx.log.info('y'.repeat(20_000_000));
      throw new Error('z'.repeat(5_000_000));`;
    const source = failsOnce(dir, action).replace('reconcile(req) {', 'reconcile(req, ctx) {');
    const r = runController(dir, source, SIM);
    assert.equal(r.code, 0, r.stderr.slice(-2000));
    assert.doesNotMatch(r.stderr, /blocked the controller host/);
    assert.match(r.stdout, /info \[#1 default\/web\]: line 99999\n/);
    assert.match(r.stdout, /y{1000}… \(\d+ more characters\)/);
    assert.match(r.stdout, /#1 ReplicaSet default\/web \(ADDED rv \d+\) → error: z{1000}z*… \(\d+ more characters\)/);
    assert.ok(r.stdout.length + r.stderr.length < 10_000_000, `printed ${r.stdout.length + r.stderr.length} characters`);
    assert.equal(r.trace.filter((l) => l.key === 'default/web').at(-1)?.error, undefined);
  });
});

test('process.exit in a timer after the reconcile returned is reported as uncaught, and the run exits 1', () => {
  withTempDir((dir) => {
    const r = runController(dir, failsOnce(dir, 'setTimeout(() => process.exit(0), 0);'), SIM);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /error: uncaught exception: ProcessExitError: process\.exit\(0\) called/);
    assert.match(r.stderr, /every key reconciled, but 1 exception\(s\) or rejection\(s\) went uncaught/);
    assert.ok(r.trace.every((l) => !l.error));
  });
});

test('--timeout running out names the reconcile that is still running, and for how long', () => {
  withTempDir((dir) => {
    // The default 30 s reconcile limit is longer than this run: only --timeout can end it.
    const r = runController(dir, failsOnce(dir, 'while (true) {}'), ['--sim', '--scenario', REPLICASET_SCENARIO, '--until-idle', '--timeout', '6']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /gave up after 6 s \(not idle: default\/web processing/);
    assert.match(r.stderr, /reconcile #1 ReplicaSet default\/web has been running \d+\.\d s/);
    assert.doesNotMatch(r.stderr, /the controller host exited/);
  });
});

test('a controller that kills its process on every reconcile is restarted a few times, then the run ends', () => {
  withTempDir((dir) => {
    const source = `import { defineController } from 'controller-lab';
export default defineController({ name: 'killer', for: { apiVersion: 'apps/v1', kind: 'ReplicaSet' }, reconcile() { process.kill(process.pid, 'SIGKILL'); } });
`;
    // Without --until-idle only the give-up rule (or --timeout) can end this run.
    const r = runController(dir, source, ['--sim', '--scenario', REPLICASET_SCENARIO, '--timeout', '45']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /it failed 5 times in a row without a successful reconcile: not restarting it again/);
    assert.equal(r.trace.length, 5);
    assert.ok(r.trace.every((l) => /the controller host exited \(signal SIGKILL\)/.test(l.error?.message ?? '')));
    assert.doesNotMatch(r.stderr, /gave up after/);
  });
});

test('a key whose last reconcile ended in a TerminalError is named when the run ends, and the run exits 1', () => {
  withTempDir((dir) => {
    const source = `import { defineController, TerminalError } from 'controller-lab';
export default defineController({
  name: 'terminal',
  for: { apiVersion: 'apps/v1', kind: 'ReplicaSet' },
  reconcile(req) { if (req.name === 'web') throw new TerminalError('web has a bad spec'); },
});
`;
    const r = runController(dir, source, SIM);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /stopped with 1 key\(s\) still failing: ReplicaSet default\/web \(#\d+: web has a bad spec\)/);
    // Not retried: each web reconcile came from an event, none from a requeue.
    assert.ok(r.trace.filter((l) => l.key === 'default/web').every((l) => l.requeue.action === 'forgetTerminal' && l.trigger[0]?.type !== 'REQUEUE'));
  });
});

test('a reconcile that leaks memory past --max-heap is reported out of memory with its key, without V8\'s report, and the run goes on', () => {
  withTempDir((dir) => {
    const source = failsOnce(dir, "const kept: string[][] = []; for (;;) kept.push(Array.from({ length: 1000 }, (_, i) => 'leak ' + i + kept.length));");
    const r = runController(dir, source, [...SIM, '--max-heap', '64']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /the controller host of controller fragile ran out of memory \(heap limit 64 MB\) during reconcile #1 ReplicaSet default\/web \(running \d+\.\d s\); restarting it/);
    assert.doesNotMatch(`${r.stdout}${r.stderr}`, /Last few GCs|Native stack trace/);
    assert.match(r.stdout, /#1 ReplicaSet default\/web .*error: the controller host ran out of memory \(heap limit 64 MB\) during this reconcile/);
  });
});

/** True while `pid` runs (a zombie, ended but not yet reaped by init, does not count). */
function running(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

test('a controller that starts processes of its own does not keep the run from ending, and they end with it', { skip: process.platform !== 'linux' && 'reads /proc' }, () => {
  withTempDir((dir) => {
    const pids = join(dir, 'pids');
    const source = `import { defineController } from 'controller-lab';
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
export default defineController({
  name: 'spawner',
  for: { apiVersion: 'apps/v1', kind: 'ReplicaSet' },
  reconcile(req) {
    if (req.name !== 'web') return;
    // One sharing the host's output, one on its own: neither may outlive the run.
    const shared = spawn('sh', ['-c', 'sleep 300 & echo $! >> ${pids}; wait'], { stdio: 'inherit' });
    const alone = spawn('sleep', ['301'], { stdio: 'ignore' });
    appendFileSync(${JSON.stringify(pids)}, shared.pid + '\\n' + alone.pid + '\\n');
  },
});
`;
    const r = runController(dir, source, SIM, { limitMs: 30_000 });
    assert.notEqual(r.code, null, `the run hung:\n${r.stdout}\n${r.stderr}`);
    assert.equal(r.code, 0, r.stderr);
    const started = readFileSync(pids, 'utf8').trim().split('\n').map(Number);
    assert.ok(started.length >= 3, `pids: ${started.join(' ')}`);
    assert.deepEqual(started.filter(running), [], 'still running after the run ended');
  });
});

test('a process the controller starts in a session of its own (detached) ends with the run too', { skip: process.platform !== 'linux' && 'reads /proc' }, () => {
  withTempDir((dir) => {
    const pids = join(dir, 'pids');
    const source = `import { defineController } from 'controller-lab';
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
export default defineController({
  name: 'daemoniser',
  for: { apiVersion: 'apps/v1', kind: 'ReplicaSet' },
  reconcile(req) {
    if (req.name !== 'web') return;
    // setsid: out of the host's process group, so killing the group does not reach it.
    const daemon = spawn('sleep', ['302'], { stdio: 'ignore', detached: true });
    daemon.unref();
    appendFileSync(${JSON.stringify(pids)}, daemon.pid + '\\n');
  },
});
`;
    const r = runController(dir, source, SIM, { limitMs: 30_000 });
    assert.equal(r.code, 0, r.stderr);
    const started = readFileSync(pids, 'utf8').trim().split('\n').map(Number);
    assert.ok(started.length >= 1, `pids: ${started.join(' ')}`);
    // The kill lands as the host exits; give it a moment.
    const deadline = Date.now() + 2000;
    while (started.some(running) && Date.now() < deadline) spawnSync('sleep', ['0.1']);
    const left = started.filter(running);
    for (const pid of left) process.kill(pid, 'SIGKILL');
    assert.deepEqual(left, [], 'still running after the run ended');
  });
});

test('a process the controller double-forks (setsid, fork, the middle one exits) ends with the run too', { skip: process.platform !== 'linux' && 'reads /proc' }, () => {
  withTempDir((dir) => {
    const pids = join(dir, 'pids');
    const source = `import { defineController } from 'controller-lab';
import { spawnSync } from 'node:child_process';
export default defineController({
  name: 'doubleforker',
  for: { apiVersion: 'apps/v1', kind: 'ReplicaSet' },
  reconcile(req) {
    if (req.name !== 'web') return;
    // The shell is a session of its own; it starts sleep in the background and exits, so sleep is
    // reparented away from the host before the run ends: no longer its descendant.
    spawnSync('setsid', ['sh', '-c', 'sleep 304 </dev/null >/dev/null 2>&1 & echo $! >> ' + ${JSON.stringify(pids)}], { stdio: 'ignore' });
  },
});
`;
    const r = runController(dir, source, SIM, { limitMs: 30_000 });
    assert.equal(r.code, 0, r.stderr);
    const started = readFileSync(pids, 'utf8').trim().split('\n').map(Number);
    assert.ok(started.length >= 1, `pids: ${started.join(' ')}`);
    const deadline = Date.now() + 2000;
    while (started.some(running) && Date.now() < deadline) spawnSync('sleep', ['0.1']);
    const left = started.filter(running);
    for (const pid of left) process.kill(pid, 'SIGKILL');
    assert.deepEqual(left, [], 'still running after the run ended');
  });
});

test('--workers 0 (nothing would ever reconcile) or a billion (the host dies making them) is refused as a usage error', () => {
  withTempDir((dir) => {
    for (const workers of ['0', '1000000000', '2.5']) {
      const r = runController(dir, failsOnce(dir, ''), ['--sim', '--until-idle', '--workers', workers], { limitMs: 20_000 });
      assert.equal(r.code, 2, `--workers ${workers}: ${r.stderr}`);
      assert.match(r.stderr, /^controller-lab run: --workers must be a whole number from 1 to 1000/m);
      assert.doesNotMatch(r.stdout, /simulated cluster at/);
    }
  });
});

test('--timeout, --connect-timeout or --reconcile-timeout past a day is refused as a usage error, not a limit Node fires at once', () => {
  withTempDir((dir) => {
    for (const [flag, value] of [['--timeout', '1e12'], ['--connect-timeout', '99999999'], ['--reconcile-timeout', '1e15']]) {
      const r = runController(dir, failsOnce(dir, ''), ['--sim', '--until-idle', flag!, value!], { limitMs: 20_000 });
      assert.equal(r.code, 2, `${flag} ${value}: ${r.stderr}`);
      assert.match(r.stderr, new RegExp(`^controller-lab run: ${flag} must be at most \\d+ \\(a day; got ${value}\\)`, 'm'));
      assert.doesNotMatch(r.stderr, /gave up after/);
    }
  });
});

test('a controller whose maxConcurrentReconciles is a billion fails to load, saying so, instead of crashing the host', () => {
  withTempDir((dir) => {
    const source = failsOnce(dir, '').replace("name: 'fragile',", "name: 'fragile',\n  maxConcurrentReconciles: 1e9,");
    const r = runController(dir, source, SIM, { limitMs: 30_000 });
    assert.notEqual(r.code, null, `the run hung:\n${r.stdout}\n${r.stderr}`);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /load failed: defineController: maxConcurrentReconciles must be a positive integer, at most 1000/);
  });
});

test('a misspelt `for` or `reconcile` fails to load naming the unknown field the user wrote', () => {
  withTempDir((dir) => {
    const forTypo = runController(dir, failsOnce(dir, '').replace('  for: {', '  fro: {'), SIM, { limitMs: 30_000 });
    assert.notEqual(forTypo.code, 0);
    assert.match(forTypo.stderr, /load failed: defineController: `for` needs \{ apiVersion, kind \} \(unknown field `fro`: a misspelling\?\)/);
    const reconcileTypo = runController(dir, failsOnce(dir, '').replace('  reconcile(req) {', '  reconcil(req) {'), SIM, { limitMs: 30_000 });
    assert.notEqual(reconcileTypo.code, 0);
    assert.match(reconcileTypo.stderr, /load failed: defineController: `reconcile` must be a function \(unknown field `reconcil`: a misspelling\?\)/);
  });
});

test('--timeout without --until-idle ends an idle controller\'s run saying so, not that a reconcile is running', () => {
  withTempDir((dir) => {
    const source = `import { defineController } from 'controller-lab';
export default defineController({ name: 'calm', for: { apiVersion: 'apps/v1', kind: 'ReplicaSet' }, reconcile() {} });
`;
    const scenario = join(dir, 'scenario.yaml');
    writeFileSync(scenario, 'objects:\n  - { apiVersion: apps/v1, kind: ReplicaSet, metadata: { name: web, namespace: default }, spec: { selector: { matchLabels: { app: web } }, template: { metadata: { labels: { app: web } }, spec: { containers: [{ name: web, image: nginx }] } } } }\n');
    const r = runController(dir, source, ['--sim', '--scenario', scenario, '--timeout', '8']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /^controller-lab run: stopped after 8 s \(--timeout\); the controller was idle: --until-idle ends a run as soon as it is, with exit 0$/m);
    assert.doesNotMatch(r.stderr, /gave up after|a reconcile is running/);
  });
});
