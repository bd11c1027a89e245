// `controller-lab sim --api-server-only`: kube-apiserver's part alone, as envtest runs it — the
// kubernetes Service and bootstrap RBAC are there, but no controller manager adds a namespace's
// CA ConfigMap or default ServiceAccount (suites written for envtest count on that).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { kubectl, kubectlOk, startSimProcess, type SimProcess } from './simProcess.ts';

const sim = {} as SimProcess;
before(async () => void Object.assign(sim, await startSimProcess(['--api-server-only'])));
after(async () => assert.equal(await sim.stop(), 0, `sim exited uncleanly:\n${sim.output()}`));

test('an API server alone: the kubernetes Service, and new namespaces stay empty', async () => {
  assert.match(await kubectlOk(sim, ['get', 'service', 'kubernetes', '-n', 'default']), /kubernetes\s+ClusterIP\s+10\.96\.0\.1/);
  await kubectlOk(sim, ['create', 'namespace', 'bare']);
  // Longer than the controller manager takes to fill a namespace when it runs (well under a second).
  await new Promise((r) => setTimeout(r, 2000));
  assert.equal((await kubectlOk(sim, ['get', 'configmaps,serviceaccounts', '-n', 'bare', '-o', 'name'])).trim(), '');
});

/** A ConfigMap owned by another one, as a controller's child is owned by its parent. */
async function ownedPair(namespace: string, owner: string): Promise<void> {
  await kubectlOk(sim, ['create', 'configmap', owner, '-n', namespace]);
  const uid = (await kubectlOk(sim, ['get', 'configmap', owner, '-n', namespace, '-o', 'jsonpath={.metadata.uid}'])).trim();
  const child = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${owner}-child`, namespace, ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: owner, uid }] } };
  await kubectlOk(sim, ['create', '-f', '-'], JSON.stringify(child));
}

test('no garbage collector: an owner\'s dependents stay, Orphan and Foreground deletes wait behind their finalizers', async () => {
  await kubectlOk(sim, ['create', 'namespace', 'gc']);
  await ownedPair('gc', 'background');
  await kubectlOk(sim, ['delete', 'configmap', 'background', '-n', 'gc']);
  await ownedPair('gc', 'foreground');
  await kubectlOk(sim, ['delete', 'configmap', 'foreground', '-n', 'gc', '--cascade=foreground', '--wait=false']);
  await ownedPair('gc', 'orphan');
  await kubectlOk(sim, ['delete', 'configmap', 'orphan', '-n', 'gc', '--cascade=orphan', '--wait=false']);
  await new Promise((r) => setTimeout(r, 1000));
  const rows = await kubectlOk(sim, ['get', 'configmaps', '-n', 'gc', '-o', 'jsonpath={range .items[*]}{.metadata.name} {.metadata.finalizers} {.metadata.deletionTimestamp}{"\\n"}{end}']);
  const byName = new Map(rows.trim().split('\n').map((l) => [l.split(' ')[0], l] as const));
  assert.deepEqual([...byName.keys()].sort(), ['background-child', 'foreground', 'foreground-child', 'orphan', 'orphan-child'], rows);
  assert.match(byName.get('foreground') ?? '', /^foreground \["foregroundDeletion"\] \d{4}-/);
  assert.match(byName.get('orphan') ?? '', /^orphan \["orphan"\] \d{4}-/);
});

test('no namespace controller: a deleted namespace stays Terminating with what it holds', async () => {
  await kubectlOk(sim, ['create', 'namespace', 'doomed']);
  await kubectlOk(sim, ['create', 'configmap', 'left', '-n', 'doomed']);
  await kubectlOk(sim, ['delete', 'namespace', 'doomed', '--wait=false']);
  await new Promise((r) => setTimeout(r, 1000));
  assert.equal((await kubectlOk(sim, ['get', 'namespace', 'doomed', '-o', 'jsonpath={.status.phase}'])).trim(), 'Terminating');
  assert.equal((await kubectlOk(sim, ['get', 'configmap', 'left', '-n', 'doomed', '-o', 'name'])).trim(), 'configmap/left');
});

test('without a namespace controller, namespaces/finalize clearing the last finalizer deletes a Terminating namespace, as kube-apiserver does', async () => {
  await kubectlOk(sim, ['create', 'namespace', 'finalized']);
  await kubectlOk(sim, ['delete', 'namespace', 'finalized', '--wait=false']);
  const ns = JSON.parse(await kubectlOk(sim, ['get', 'namespace', 'finalized', '-o', 'json'])) as { spec: { finalizers?: string[] } };
  assert.deepEqual(ns.spec.finalizers, ['kubernetes']);
  ns.spec.finalizers = [];
  await kubectlOk(sim, ['replace', '--raw', '/api/v1/namespaces/finalized/finalize', '-f', '-'], JSON.stringify(ns));
  const gone = await kubectl(sim, ['get', 'namespace', 'finalized']);
  assert.match(gone.stderr, /NotFound|not found/);
});
