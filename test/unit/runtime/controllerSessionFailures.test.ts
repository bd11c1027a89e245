import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ControllerSession } from '../../../src/runtime/controllerSession.ts';
import { launchSim } from '../../../src/runtime/simLauncher.ts';
import type { ReconcileRecord } from '../../../src/controllerProtocol/records.ts';
import { REPLICASET_SCENARIO, withTempDirAsync } from './support/runController.ts';

// The session as the debugger uses it (no restarts): a host blocked in a reconcile is stopped by the
// watchdog, and the session ends with a report naming the reconcile, instead of waiting forever.

test('a session whose host blocks in a reconcile reports which one, ends it as failed and exits', async () => {
  await withTempDirAsync(async (dir) => {
    const file = join(dir, 'loop.ts');
    writeFileSync(
      file,
      `import { defineController } from 'controller-lab';
export default defineController({ name: 'loop', for: { apiVersion: 'apps/v1', kind: 'ReplicaSet' }, reconcile(req) { if (req.name === 'web') while (true) {} } });
`,
    );
    const sim = await launchSim({ scenario: REPLICASET_SCENARIO });
    const session = new ControllerSession({ file, kubeconfig: sim.kubeconfigPath, reconcileTimeoutMs: 200, cwd: dir });
    try {
      const ended: ReconcileRecord[] = [];
      const fatal: string[] = [];
      let failed: { message: string; restarting: boolean } | undefined;
      session.on('synced', () => sim.startScenario());
      session.on('reconcileEnd', ({ record }) => ended.push(record));
      session.on('fatal', ({ message }) => fatal.push(message));
      session.on('hostFailed', (f) => (failed = f));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => session.on('exit', resolve));
      assert.equal(await session.start(), true);
      const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the session did not end within 30 s')), 30_000).unref());
      const exit = await Promise.race([exited, timeout]);
      assert.equal(exit.signal, 'SIGKILL');
      assert.equal(failed?.restarting, false);
      assert.match(fatal.join('\n'), /reconcile #1 ReplicaSet default\/web \(running \d+\.\d s\) of controller loop blocked the controller host/);
      const web = ended.find((r) => r.key === 'default/web');
      assert.equal(web?.outcome?.kind === 'error' && web.outcome.error.timedOut, true);
      assert.deepEqual(session.inFlight(), []);
    } finally {
      await session.stop();
      await sim.stop();
    }
  });
});

test('a controller that leaks memory runs its host out of heap at its limit: reported as out of memory, with the reconcile and key', async () => {
  await withTempDirAsync(async (dir) => {
    const file = join(dir, 'leak.ts');
    writeFileSync(
      file,
      `import { defineController } from 'controller-lab';
const kept: string[][] = [];
export default defineController({ name: 'leak', for: { apiVersion: 'apps/v1', kind: 'ReplicaSet' }, reconcile(req) {
  if (req.name !== 'web') return;
  for (;;) kept.push(Array.from({ length: 1000 }, (_, i) => 'leaked ' + i + ' ' + kept.length));
} });
`,
    );
    const sim = await launchSim({ scenario: REPLICASET_SCENARIO });
    const session = new ControllerSession({ file, kubeconfig: sim.kubeconfigPath, maxHeapMb: 64, reconcileTimeoutMs: 60_000, cwd: dir });
    try {
      const ended: ReconcileRecord[] = [];
      const fatal: string[] = [];
      session.on('synced', () => sim.startScenario());
      session.on('reconcileEnd', ({ record }) => ended.push(record));
      session.on('fatal', ({ message }) => fatal.push(message));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => session.on('exit', resolve));
      assert.equal(await session.start(), true);
      const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the session did not end within 60 s')), 60_000).unref());
      await Promise.race([exited, timeout]);
      assert.match(fatal.join('\n'), /^the controller host of controller leak ran out of memory \(heap limit 64 MB\) during reconcile #1 ReplicaSet default\/web \(running \d+\.\d s\)$/m);
      const web = ended.find((r) => r.key === 'default/web');
      assert.equal(web?.outcome?.kind === 'error' && web.outcome.error.name, 'HostOutOfMemory');
    } finally {
      await session.stop();
      await sim.stop();
    }
  });
});
