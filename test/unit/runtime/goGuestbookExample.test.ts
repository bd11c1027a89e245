import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { ControllerSession } from '../../../src/runtime/controllerSession.ts';
import { launchSim } from '../../../src/runtime/simLauncher.ts';
import type { ReconcileRecord } from '../../../src/controllerProtocol/records.ts';

// examples/go-guestbook, a kubebuilder-layout operator watching its own custom kind, run as
// `controller-lab run ./examples/go-guestbook/cmd --sim --scenario …` runs it: its CRD is served
// before the manager starts, so it syncs and the scenario plays; the Guestbook ends Available with
// its children following every step of the scenario — run as its own ServiceAccount, so the
// ClusterRole controller-gen made from its RBAC markers (config/rbac, also in the scenario) is
// all it may use.

const EXAMPLE = fileURLToPath(new URL('../../../examples/go-guestbook', import.meta.url));
const GUESTBOOKS = { group: 'webapp.example.com', version: 'v1', resource: 'guestbooks' };
const CM = { group: '', version: 'v1', resource: 'configmaps' };
const DEPLOYMENTS = { group: 'apps', version: 'v1', resource: 'deployments' };

interface GuestbookStatus {
  readyReplicas?: number;
  configMap?: string;
  conditions?: { type: string; status: string }[];
}

const MANAGER = 'system:serviceaccount:system:controller-manager';

test('the go-guestbook example, as its ServiceAccount, syncs on its CRD, plays its scenario and ends Available with 3 ready replicas', { timeout: 600_000 }, async (t) => {
  const sim = await launchSim({ scenario: `${EXAMPLE}/scenario.yaml` });
  const session = new ControllerSession({ file: `${EXAMPLE}/cmd`, cwd: EXAMPLE, kubeconfig: sim.kubeconfigPath, runAs: MANAGER, mirrorCache: false });
  t.after(async () => {
    await session.stop();
    await sim.stop();
  });
  const records: ReconcileRecord[] = [];
  session.on('reconcileEnd', ({ record }) => records.push(record));
  let fatal = '';
  session.on('fatal', (f) => (fatal += f.message));
  const synced = new Promise<boolean>((done) => session.once('synced', () => done(true)));
  session.on('synced', () => sim.startScenario());
  assert.equal(await session.start(), true, fatal);
  // A manager whose custom kind is not served never syncs (controller-runtime waits for the CRD).
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((r) => (timer = setTimeout(() => r(false), 120_000)));
  assert.equal(await Promise.race([synced, timedOut]), true, 'the manager never synced');
  clearTimeout(timer);
  await sim.scenarioDone;

  const settled = (): boolean => {
    try {
      const status = (sim.cluster.get(GUESTBOOKS, 'default', 'hello').object as { status?: GuestbookStatus }).status;
      const message = (sim.cluster.get(CM, 'default', 'hello-message').object as { data?: Record<string, string> }).data?.message;
      return status?.readyReplicas === 3 && status.conditions?.some((c) => c.type === 'Available' && c.status === 'True') === true && message === 'Hello again';
    } catch {
      return false;
    }
  };
  for (let end = Date.now() + 60_000; !settled() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 100));
  assert.ok(settled(), `not settled: ${JSON.stringify(sim.cluster.get(GUESTBOOKS, 'default', 'hello').object)}\n${fatal}`);
  const deployment = sim.cluster.get(DEPLOYMENTS, 'default', 'hello-frontend').object as { spec?: { replicas?: number }; metadata: { ownerReferences?: { kind: string; name: string; controller?: boolean }[] } };
  assert.equal(deployment.spec?.replicas, 3);
  assert.deepEqual(deployment.metadata.ownerReferences?.map((o) => `${o.kind}/${o.name}/${o.controller}`), ['Guestbook/hello/true']);
  // The ConfigMap deleted by the scenario came back through the Owns event.
  assert.ok(records.some((r) => r.trigger.some((tr) => tr.type === 'DELETED' && tr.kind === 'ConfigMap')), 'no reconcile for the deleted ConfigMap');
  assert.equal(records.filter((r) => r.outcome?.kind === 'error').length, 0);
});

test('the go-guestbook example run as a ServiceAccount without its role never syncs: its informers are refused', { timeout: 600_000 }, async (t) => {
  const sim = await launchSim({ scenario: `${EXAMPLE}/scenario.yaml` });
  const session = new ControllerSession({ file: `${EXAMPLE}/cmd`, cwd: EXAMPLE, kubeconfig: sim.kubeconfigPath, runAs: 'system:serviceaccount:system:nobody', mirrorCache: false });
  t.after(async () => {
    await session.stop();
    await sim.stop();
  });
  let output = '';
  session.on('output', ({ text }) => (output += text));
  let synced = false;
  session.on('synced', () => (synced = true));
  assert.equal(await session.start(), true);
  const refused = 'guestbooks.webapp.example.com is forbidden: User \\"system:serviceaccount:system:nobody\\" cannot list resource \\"guestbooks\\"';
  for (let end = Date.now() + 60_000; !output.includes(refused) && Date.now() < end; ) await new Promise((r) => setTimeout(r, 100));
  assert.ok(output.includes(refused), output);
  assert.equal(synced, false);
});
