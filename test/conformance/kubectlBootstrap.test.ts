// Real kubectl against `controller-lab sim` for what every real cluster has from its first second
// and what test suites' set-up looks up: the kubernetes Service and its endpoints, the bootstrap
// RBAC policy, the system PriorityClasses, the protected namespaces, and the CA ConfigMap and
// default ServiceAccount the controller manager adds to each namespace.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubectl, kubectlOk, rawRequest, simForFile, startSimProcess, waitForNamespaceDefaults, type Json, type SimProcess } from './simProcess.ts';

const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

const sim = simForFile();

const portOf = (s: SimProcess): number => Number(new URL(s.url).port);

/** kubectl that must succeed within 10 s (the controller manager works asynchronously, as a real one). */
async function kubectlEventually(s: SimProcess, args: string[]): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const r = await kubectl(s, args);
    if (r.code === 0) return r.stdout;
    if (Date.now() > deadline) throw new Error(`kubectl ${args.join(' ')} still fails after 10 s:\n${r.stderr}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

describe('the kubernetes Service', () => {
  it('kubectl get svc kubernetes: ClusterIP 10.96.0.1, 443/TCP; its endpoints are the sim\'s own address', async () => {
    assert.match(await kubectlOk(sim, ['get', 'svc', 'kubernetes']), /^NAME\s+TYPE\s+CLUSTER-IP\s+EXTERNAL-IP\s+PORT\(S\)\s+AGE\nkubernetes\s+ClusterIP\s+10\.96\.0\.1\s+<none>\s+443\/TCP\s+\d+s\n$/);
    const svc = JSON.parse(await kubectlOk(sim, ['-n', 'default', 'get', 'service', 'kubernetes', '-o', 'json'])) as Json;
    assert.deepEqual(svc['spec'].ports, [{ name: 'https', port: 443, protocol: 'TCP', targetPort: portOf(sim) }]);
    assert.match(await kubectlOk(sim, ['get', 'endpoints', 'kubernetes']), new RegExp(`^NAME\\s+ENDPOINTS\\s+AGE\\nkubernetes\\s+127\\.0\\.0\\.1:${portOf(sim)}\\s+\\d+s\\n$`));
    assert.match(await kubectlOk(sim, ['get', 'endpointslices', 'kubernetes']), new RegExp(`^kubernetes\\s+IPv4\\s+${portOf(sim)}\\s+127\\.0\\.0\\.1\\s+\\d+s$`, 'm'));
  });
});

describe('the bootstrap RBAC policy and PriorityClasses', () => {
  it('kubectl get clusterroles / clusterrolebindings list kube-apiserver\'s defaults', async () => {
    const roles = (await kubectlOk(sim, ['get', 'clusterroles', '-o', 'name'])).trim().split('\n');
    for (const name of ['cluster-admin', 'admin', 'edit', 'view', 'system:discovery', 'system:basic-user', 'system:controller:deployment-controller']) {
      assert.ok(roles.includes(`clusterrole.rbac.authorization.k8s.io/${name}`), name);
    }
    assert.equal(roles.length, 62);
    const defaults = await kubectlOk(sim, ['get', 'clusterroles', '-l', 'kubernetes.io/bootstrapping=rbac-defaults', '-o', 'name']);
    assert.equal(defaults.trim().split('\n').length, 62);
    assert.match(await kubectlOk(sim, ['get', 'clusterrolebinding', 'cluster-admin', '-o', 'wide']), /^cluster-admin\s+ClusterRole\/cluster-admin\s+\d+s\s+system:masters\s*$/m);
    const view = JSON.parse(await kubectlOk(sim, ['get', 'clusterrole', 'view', '-o', 'json'])) as Json;
    assert.equal(view['metadata'].annotations['rbac.authorization.kubernetes.io/autoupdate'], 'true');
    assert.equal(view['metadata'].labels['rbac.authorization.k8s.io/aggregate-to-edit'], 'true');
    assert.deepEqual(view['aggregationRule'], { clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } }] });
    assert.match(await kubectlOk(sim, ['-n', 'kube-system', 'get', 'roles', '-o', 'name']), /role.rbac.authorization.k8s.io\/extension-apiserver-authentication-reader/);
  });

  it('admin/edit/view are aggregated: view can list pods', async () => {
    const view = JSON.parse(await kubectlEventually(sim, ['get', 'clusterrole', 'view', '-o', 'json'])) as Json;
    const deadline = Date.now() + 10_000;
    let rules = view['rules'] as { resources?: string[]; verbs?: string[] }[] | undefined;
    while (!rules?.some((r) => r.resources?.includes('pods') && r.verbs?.includes('list'))) {
      assert.ok(Date.now() < deadline, 'view never gathered the aggregate-to-view rules');
      await new Promise((res) => setTimeout(res, 100));
      rules = (JSON.parse(await kubectlOk(sim, ['get', 'clusterrole', 'view', '-o', 'json'])) as Json)['rules'];
    }
  });

  it('kubectl get priorityclasses: system-cluster-critical and system-node-critical', async () => {
    const out = await kubectlOk(sim, ['get', 'priorityclasses']);
    assert.match(out, /^system-cluster-critical\s+2000000000\s+false\s+\d+s$/m);
    assert.match(out, /^system-node-critical\s+2000001000\s+false\s+\d+s$/m);
  });
});

describe('namespaces', () => {
  it('kubectl delete ns kube-system / default / kube-public is refused: Forbidden, nothing changes', async () => {
    for (const ns of ['kube-system', 'default', 'kube-public']) {
      const r = await kubectl(sim, ['delete', 'namespace', ns]);
      assert.notEqual(r.code, 0);
      assert.equal(r.stderr.trim(), `Error from server (Forbidden): namespaces "${ns}" is forbidden: this namespace may not be deleted`);
      assert.match(await kubectlOk(sim, ['get', 'namespace', ns]), new RegExp(`^${ns}\\s+Active\\s+`, 'm'));
    }
  });

  it('kubectl create ns: kube-root-ca.crt (the sim\'s CA) and the default ServiceAccount appear in it, and come back when deleted', async () => {
    await kubectlOk(sim, ['create', 'namespace', 'boot-x']);
    assert.match(await kubectlEventually(sim, ['-n', 'boot-x', 'get', 'cm', 'kube-root-ca.crt']), /^NAME\s+DATA\s+AGE\nkube-root-ca\.crt\s+1\s+\d+s\n$/);
    assert.match(await kubectlEventually(sim, ['-n', 'boot-x', 'get', 'sa', 'default']), /^NAME\s+SECRETS\s+AGE\ndefault\s+0\s+\d+s\n$/);
    const ca = await kubectlOk(sim, ['-n', 'boot-x', 'get', 'cm', 'kube-root-ca.crt', '-o', 'jsonpath={.data.ca\\.crt}']);
    assert.equal(ca, sim.endpoint.caPem, 'the CA in the kubeconfig');

    await kubectlOk(sim, ['-n', 'boot-x', 'delete', 'sa', 'default']);
    await kubectlOk(sim, ['-n', 'boot-x', 'delete', 'cm', 'kube-root-ca.crt']);
    await kubectlEventually(sim, ['-n', 'boot-x', 'get', 'sa', 'default']);
    await kubectlEventually(sim, ['-n', 'boot-x', 'get', 'cm', 'kube-root-ca.crt']);
  });

  it('the controller manager shows up among the sim\'s clients', async () => {
    for (const ns of SYSTEM_NAMESPACES) await waitForNamespaceDefaults(sim, ns);
    const r = await rawRequest(sim, 'GET', '/controller-lab/admin/clients');
    const clients = (JSON.parse(r.body) as { clients: { userAgent: string; writes: number }[] }).clients;
    const writes = (controller: string) => clients.find((c) => c.userAgent === `kube-controller-manager/v1.28.4 (linux/amd64) kubernetes/sim/system:serviceaccount:kube-system:${controller}`)?.writes ?? 0;
    assert.ok(writes('root-ca-cert-publisher') >= 4, `a ConfigMap in each system namespace; clients: ${clients.map((c) => c.userAgent).join(', ')}`);
    assert.ok(writes('service-account-controller') >= 4, 'a ServiceAccount in each system namespace');
  });
});

describe('a restart with --state-dir', () => {
  it('keeps one of each and moves the endpoints to the new port', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'controller-lab-bootstrap-'));
    try {
      const first = await startSimProcess([], dir);
      for (const ns of SYSTEM_NAMESPACES) await waitForNamespaceDefaults(first, ns);
      const before = (await kubectlOk(first, ['get', 'clusterroles,clusterrolebindings,priorityclasses,cm,sa,svc,ep', '-A', '-o', 'name'])).trim().split('\n').sort();
      assert.equal(await first.stop(), 0);
      const second = await startSimProcess([], dir);
      try {
        const after = (await kubectlOk(second, ['get', 'clusterroles,clusterrolebindings,priorityclasses,cm,sa,svc,ep', '-A', '-o', 'name'])).trim().split('\n').sort();
        assert.deepEqual(after, before);
        assert.match(await kubectlOk(second, ['get', 'endpoints', 'kubernetes']), new RegExp(`^kubernetes\\s+127\\.0\\.0\\.1:${portOf(second)}\\s+`, 'm'));
      } finally {
        assert.equal(await second.stop(), 0);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
