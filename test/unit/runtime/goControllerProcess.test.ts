import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { GoControllerProcess } from '../../../src/runtime/goControllerProcess.ts';
import { launchSim } from '../../../src/runtime/simLauncher.ts';
import type { ReconcileEnd } from '../../../src/controllerProtocol/protocol.ts';
import type { ReconcileRecord } from '../../../src/controllerProtocol/records.ts';

// A real Go controller (go/examples/configmap-mirror, which calls controllerlab.Wrap) built and
// run against the simulated cluster: its reconciles arrive as the TypeScript host's messages, held
// at the gate until proceed.

const goModule = fileURLToPath(new URL('../../../go', import.meta.url));
const CM = { group: '', version: 'v1', resource: 'configmaps' };

test('a Go controller reports its reconciles, held until proceed, with the writes the server answered', { timeout: 600_000 }, async (t) => {
  const sim = await launchSim();
  const go = new GoControllerProcess();
  // Also when the test times out: a Go process left running would keep the test runner waiting.
  t.after(async () => {
    await go.stop();
    await sim.stop();
  });
  const synced = new Promise<void>((done) => go.once('synced', () => done()));
  const started = new Promise<ReconcileRecord>((done) => {
    go.on('reconcileStart', (m) => {
      if (m.record.key === 'default/src' && m.gated) done(m.record);
      // The cluster's own ConfigMaps (each namespace's kube-root-ca.crt) are reconciled too: let them go.
      else if (m.gated) go.proceed(m.record.reconcileId);
    });
  });
  const ends: ReconcileEnd[] = [];
  go.on('reconcileEnd', (m) => ends.push(m.end));
  let fatal = '';
  go.on('fatal', (f) => (fatal += f.message));
  const ok = await go.start({ packageDir: `${goModule}/examples/configmap-mirror`, moduleDir: goModule, kubeconfig: sim.kubeconfigPath, gated: true, mirrorCache: true });
  assert.ok(ok, `the example did not build (Go 1.26 must be on the PATH): ${fatal}`);
  await synced;
  sim.cluster.create(CM, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'src', labels: { mirror: 'source' } }, data: { a: '1' } });
  const record = await started;
  assert.equal(record.forKind.kind, 'ConfigMap');
  assert.equal(record.trigger[0]?.type, 'ADDED');
  // Held at the gate: nothing written yet.
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(ends.filter((e) => e.reconcileId === record.reconcileId).length, 0);
  assert.throws(() => sim.cluster.get(CM, 'default', 'src-mirror'));
  go.proceed(record.reconcileId);
  const end = await new Promise<ReconcileEnd>((done) => {
    const check = () => {
      const e = ends.find((x) => x.reconcileId === record.reconcileId);
      if (e) done(e);
      else setTimeout(check, 20);
    };
    check();
  });
  const mirror = sim.cluster.get(CM, 'default', 'src-mirror');
  assert.equal(end.writes[0]?.verb, 'create');
  assert.equal(end.writes[0]?.name, 'src-mirror');
  assert.equal(end.writes[0]?.resourceVersion, mirror.object.metadata.resourceVersion);
  assert.equal(end.decision.action, 'forget');
});
