// `controller-lab sim --api-server-only`: kube-apiserver's part alone, as envtest runs it — the
// kubernetes Service and bootstrap RBAC are there, but no controller manager adds a namespace's
// CA ConfigMap or default ServiceAccount (suites written for envtest count on that).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { kubectlOk, startSimProcess, type SimProcess } from './simProcess.ts';

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
