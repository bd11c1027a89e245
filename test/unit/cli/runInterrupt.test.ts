import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { scratchDir } from '../kube/support/loopbackApi.ts';
import { startCli } from './support/runCli.ts';

// `controller-lab run` stopped by Ctrl-C or `kill`: the exit code says so (130, 143, as a shell
// reports a process that signal ended), the last line names the reconcile it cut short and what
// was queued, and whatever the controller started ends with it.

/** Reconciling default/web starts a child and never ends (with BLOCK, never yields); the child's pid goes to CHILD_PID_FILE. */
const HANGING_CONTROLLER = `import { defineController } from 'controller-lab';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
export default defineController({
  name: 'hang',
  for: { apiVersion: 'apps/v1', kind: 'ReplicaSet' },
  reconcile(req) {
    if (req.name !== 'web') return;
    const child = spawn('sleep', ['300'], { stdio: 'ignore' });
    writeFileSync(process.env.CHILD_PID_FILE, String(child.pid));
    // Blocked, the controller's process cannot hear that it should stop.
    if (process.env.BLOCK) for (;;);
    return new Promise(() => {});
  },
});
`;

function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function runUntilReconciling(t: { after: (fn: () => void) => void }, env: NodeJS.ProcessEnv = {}) {
  const { dir, cleanup } = scratchDir();
  t.after(cleanup);
  const file = path.join(dir, 'hang.ts');
  writeFileSync(file, HANGING_CONTROLLER);
  const childPidFile = path.join(dir, 'child.pid');
  const cli = startCli(['run', file, '--sim', '--scenario', 'examples/replicaset-controller/scenario.yaml'], { env: { CHILD_PID_FILE: childPidFile, ...env } });
  const stop = setTimeout(() => cli.child.kill('SIGKILL'), 60_000);
  t.after(() => clearTimeout(stop));
  while (!existsSync(childPidFile) || readFileSync(childPidFile, 'utf8').trim() === '') {
    if (cli.child.exitCode !== null) assert.fail(`run ended before reconciling: ${(await cli.done).stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const controllerChild = Number(readFileSync(childPidFile, 'utf8'));
  t.after(() => {
    if (alive(controllerChild)) process.kill(controllerChild, 'SIGKILL');
  });
  // The scenario's api ReplicaSet is queued behind the reconcile that hangs.
  await new Promise((r) => setTimeout(r, 500));
  return { cli, controllerChild };
}

for (const [signal, code] of [['SIGTERM', 143], ['SIGINT', 130]] as const) {
  test(`${signal} during a reconcile exits ${code}, names the reconcile and the queue, and leaves no process behind`, async (t) => {
    const { cli, controllerChild } = await runUntilReconciling(t);
    cli.child.kill(signal);
    const r = await cli.done;
    assert.equal(r.code, code, r.stderr);
    const last = r.stderr.trimEnd().split('\n').at(-1) ?? '';
    assert.match(last, new RegExp(`^controller-lab run: stopped by ${signal} during reconcile #1 ReplicaSet default/web \\(running \\d+\\.\\d s\\); left in the queue: default/api queued$`));
    assert.match(r.stdout, /^run: \d+ reconciles/m, 'the summary is still printed');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(alive(controllerChild), false, 'what the controller started ends with the run');
  });
}

test('Ctrl-C twice does not wait for a blocked controller to be stopped', async (t) => {
  const { cli, controllerChild } = await runUntilReconciling(t, { BLOCK: '1' });
  cli.child.kill('SIGINT');
  await new Promise((r) => setTimeout(r, 100));
  const forced = performance.now();
  cli.child.kill('SIGINT');
  const r = await cli.done;
  // A graceful stop waits 2 s for the controller before killing it.
  assert.ok(performance.now() - forced < 1500, `exited ${Math.round(performance.now() - forced)} ms after the second Ctrl-C`);
  assert.equal(r.code, 130, r.stderr);
  assert.match(r.stderr, /stopped by SIGINT during reconcile #1 ReplicaSet default\/web \(running [\d.]+ s\).* \(forced\)\n$/);
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(alive(controllerChild), false, 'what the controller started ends with the run');
});

test('Ctrl-C on a run whose controller is idle ends it 0, with the same last line', async (t) => {
  const { dir, cleanup } = scratchDir();
  t.after(cleanup);
  const file = path.join(dir, 'idle.ts');
  writeFileSync(file, `import { defineController } from 'controller-lab';
export default defineController({ name: 'idle', for: { apiVersion: 'v1', kind: 'ConfigMap' }, reconcile() {} });
`);
  const cli = startCli(['run', file, '--sim']);
  const stop = setTimeout(() => cli.child.kill('SIGKILL'), 60_000);
  t.after(() => clearTimeout(stop));
  await cli.waitForStdout('#1 ');
  await new Promise((r) => setTimeout(r, 1500));
  cli.child.kill('SIGINT');
  const r = await cli.done;
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr.trimEnd().split('\n').at(-1) ?? '', /^controller-lab run: stopped by SIGINT with no reconcile running; left in the queue: nothing$/, r.stderr);
});
