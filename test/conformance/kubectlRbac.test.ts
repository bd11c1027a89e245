// Real kubectl against `controller-lab sim`, checking a controller's RBAC as on a real cluster:
// `--as` and `auth can-i` answer from the stored Roles and bindings, a ServiceAccount's token is
// refused what its Role does not grant, with kube-apiserver's words, and granted the rest.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { createNamespace, kubectl, kubectlOk, simForFile } from './simProcess.ts';

const sim = simForFile();

const ROLE = `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: manager-role
rules:
- apiGroups: ["apps"]
  resources: ["deployments"]
  verbs: ["get", "list", "watch"]
- apiGroups: ["apps"]
  resources: ["deployments/status"]
  verbs: ["update", "patch"]
`;

it('kubectl --as and auth can-i follow the Roles a controller ships, and its token is refused the rest', async () => {
  const ns = await createNamespace(sim, 'rbac');
  const as = `--as=system:serviceaccount:${ns}:manager`;
  await kubectlOk(sim, ['create', 'serviceaccount', 'manager', '-n', ns]);
  assert.equal((await kubectl(sim, ['auth', 'can-i', 'list', 'deployments.apps', '-n', ns, as])).stdout.trim(), 'no');

  await kubectlOk(sim, ['apply', '-n', ns, '-f', '-'], ROLE);
  await kubectlOk(sim, ['create', 'rolebinding', 'manager', '--role=manager-role', `--serviceaccount=${ns}:manager`, '-n', ns]);
  assert.equal((await kubectl(sim, ['auth', 'can-i', 'list', 'deployments.apps', '-n', ns, as])).stdout.trim(), 'yes');
  assert.equal((await kubectl(sim, ['auth', 'can-i', 'update', 'deployments.apps', '--subresource=status', '-n', ns, as])).stdout.trim(), 'yes');
  assert.equal((await kubectl(sim, ['auth', 'can-i', 'delete', 'deployments.apps', '-n', ns, as])).stdout.trim(), 'no');
  assert.equal((await kubectl(sim, ['auth', 'can-i', 'list', 'deployments.apps', '-n', 'default', as])).stdout.trim(), 'no');
  assert.match(await kubectlOk(sim, ['auth', 'can-i', '--list', '-n', ns, as]), /^deployments\.apps\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
  assert.match(await kubectlOk(sim, ['auth', 'whoami', as]), new RegExp(`Username\\s+system:serviceaccount:${ns}:manager`));

  const denied = await kubectl(sim, ['delete', 'deployment', 'web', '-n', ns, as]);
  assert.equal(denied.code, 1);
  assert.equal(denied.stderr.trim(), `Error from server (Forbidden): deployments.apps "web" is forbidden: User "system:serviceaccount:${ns}:manager" cannot delete resource "deployments" in API group "apps" in the namespace "${ns}"`);

  const token = (await kubectlOk(sim, ['create', 'token', 'manager', '-n', ns])).trim();
  const deployments = await kubectl(sim, ['get', 'deployments', '-n', ns, `--token=${token}`]);
  assert.equal(deployments.code, 0, deployments.stderr);
  assert.equal(deployments.stderr.trim(), `No resources found in ${ns} namespace.`);
  const secrets = await kubectl(sim, ['get', 'secrets', '-n', ns, `--token=${token}`]);
  assert.equal(secrets.stderr.trim(), `Error from server (Forbidden): secrets is forbidden: User "system:serviceaccount:${ns}:manager" cannot list resource "secrets" in API group "" in the namespace "${ns}"`);
});
