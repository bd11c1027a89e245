import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { FAULTS, faultHelp, faultNamed, faultUsage } from '../../../src/sim/index.ts';
import { scratchDir } from '../kube/support/loopbackApi.ts';
import { runCli, startCli } from './support/runCli.ts';

// `controller-lab sim fault NAME --flags` calls the faults of the sim's fault table: their names,
// flags and help are the table's, and so is the reading of the flags.

test('sim fault --help lists every fault of the table with its flags; NAME --help says what each flag does', async () => {
  const help = await runCli(['sim', 'fault', '--help']);
  assert.equal(help.code, 0, help.stderr);
  for (const f of FAULTS) {
    assert.ok(help.stdout.includes(`  ${faultUsage(f)}\n      ${f.help}\n`), `${f.name} in:\n${help.stdout}`);
  }
  const one = await runCli(['sim', 'fault', 'conflict', '--help']);
  assert.equal(one.stdout, faultHelp(faultNamed('conflict')!));
});

test('sim fault refuses flags the fault does not take, before it looks for a cluster', async () => {
  const missing = await runCli(['sim', 'fault', 'conflict', '--resource', 'configmaps']);
  assert.equal(missing.code, 2);
  assert.equal(missing.stderr, 'name is required\nusage: controller-lab sim fault conflict --resource RESOURCE [--namespace TEXT] --name TEXT\n');
  const unknown = await runCli(['sim', 'fault', 'delay-events', '--seconds', '1']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /^delay-events takes --ms or --user, not --seconds\n/);
});

test('sim fault sends the arguments as the table reads them, and the running sim applies them', { timeout: 60_000 }, async (t) => {
  const { dir, cleanup } = scratchDir();
  t.after(cleanup);
  const kubeconfig = path.join(dir, 'kubeconfig');
  const sim = startCli(['sim', '--kubeconfig-out', kubeconfig]);
  t.after(() => sim.child.kill('SIGINT'));
  await sim.waitForStdout('Kubeconfig:');
  const fault = async (...args: string[]): Promise<unknown> => {
    const r = await runCli(['sim', 'fault', ...args, '--kubeconfig', kubeconfig]);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout);
  };
  assert.deepEqual(await fault('conflict', '--resource', 'cm', '--name', 'app'), { ok: true });
  assert.deepEqual(await fault('delay-events', '--ms', '250ms'), { ok: true });
  assert.deepEqual(await fault('delay-events', '--ms', '1s', '--user', 'controller-lab:checked'), { ok: true });
  assert.deepEqual(await fault('http-faults', '--latency-ms', '5', '--path-filter', '/apis'), { http: { errorRate: 0, errorCode: 500, retryAfterSeconds: 1, latencyMs: 5, pathFilter: '/apis' } });
  const state = await runCli(['sim', 'state', '--kubeconfig', kubeconfig]);
  const faults = (JSON.parse(state.stdout) as { faults: { pendingConflicts: string[]; eventDelayMs: number; users: unknown } }).faults;
  assert.deepEqual([faults.pendingConflicts, faults.eventDelayMs], [['configmaps/default/app'], 250]);
  assert.deepEqual(faults.users, { 'controller-lab:checked': { eventDelayMs: 1000, eventsWithheld: false } });
  assert.ok('resourceVersion' in ((await fault('restart', '--drop-history')) as object));
});
