import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ControllerSession } from '../../../src/runtime/controllerSession.ts';
import { launchSim } from '../../../src/runtime/simLauncher.ts';
import type { ReconcileRecord } from '../../../src/controllerProtocol/records.ts';
import { REPLICASET_SCENARIO, withTempDirAsync } from './support/runController.ts';

// restartProcess: the controller's process killed (kill -9) and started again inside one session.
// The session goes on — no exit, no fatal — the reconcile it killed ends as a failure, and the
// new process numbers its reconciles on from the old one's.

test('a session restarts its process in place: records stay unique and the session does not end', async () => {
  await withTempDirAsync(async (dir) => {
    const file = join(dir, 'slow.ts');
    // `web` takes a while, so the kill comes while it runs.
    writeFileSync(
      file,
      `import { defineController } from 'controller-lab';
export default defineController({ name: 'slow', for: { apiVersion: 'apps/v1', kind: 'ReplicaSet' }, async reconcile(req) { if (req.name === 'web') await new Promise((r) => setTimeout(r, 400)); } });
`,
    );
    const sim = await launchSim({ scenario: REPLICASET_SCENARIO });
    const session = new ControllerSession({ file, kubeconfig: sim.kubeconfigPath, cwd: dir, listed: false });
    try {
      const started: ReconcileRecord[] = [];
      const ended: ReconcileRecord[] = [];
      const fatal: string[] = [];
      let exited = false;
      session.on('synced', () => sim.startScenario());
      session.on('reconcileStart', ({ record }) => started.push(record));
      session.on('reconcileEnd', ({ record }) => ended.push(record));
      session.on('fatal', ({ message }) => fatal.push(message));
      session.on('exit', () => (exited = true));
      assert.equal(await session.start(), true);
      const pid = session.pid;
      await until(() => started.some((r) => r.key === 'default/web'), 'the first web reconcile');

      const restarted = new Promise<{ pid: number | undefined; interrupted: ReconcileRecord[] }>((resolve) => session.on('restarted', resolve));
      let armed = false;
      assert.equal(session.restartProcess({ beforeStart: () => (armed = true) }), true);
      assert.equal(armed, true, 'beforeStart runs once the kill is sent');
      const restart = await restarted;
      assert.notEqual(restart.pid, pid);
      assert.deepEqual(restart.interrupted.map((r) => r.key), ['default/web']);
      const killed = ended.find((r) => r.reconcileId === restart.interrupted[0]?.reconcileId);
      assert.equal(killed?.outcome?.kind, 'error');

      // The new process lists everything again and reconciles it, numbering on.
      const before = Math.max(...started.map((r) => r.seq));
      await until(() => started.some((r) => r.seq > before && r.key === 'default/web'), 'web reconciled by the new process');
      const seqs = started.map((r) => r.seq);
      assert.equal(new Set(seqs).size, seqs.length, `seqs are unique: ${seqs.join(', ')}`);
      assert.equal(session.running, true);
      assert.equal(exited, false);
      assert.deepEqual(fatal, []);
    } finally {
      await session.stop();
      await sim.stop();
    }
  });
});

async function until(ready: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
