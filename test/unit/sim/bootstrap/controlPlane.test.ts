// What a served simulated cluster keeps in place as a real control plane does: the kubernetes
// Service with Endpoints/EndpointSlice naming the server's address, the CA ConfigMap and default
// ServiceAccount in every namespace, aggregated ClusterRoles — written by a controller manager
// that shows up as a client like any other controller.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { FakeClock } from '../../../../src/shared/clock.ts';
import { createSimCluster, type SimCluster } from '../../../../src/sim/simCluster.ts';
import { startSimServer, type SimServerHandle } from '../../../../src/sim/server/simServer.ts';
import { ApiError } from '../../../../src/shared/apiError.ts';

const SVC = { group: '', version: 'v1', resource: 'services' };
const EP = { group: '', version: 'v1', resource: 'endpoints' };
const SLICES = { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices' };
const NS = { group: '', version: 'v1', resource: 'namespaces' };
const CM = { group: '', version: 'v1', resource: 'configmaps' };
const SA = { group: '', version: 'v1', resource: 'serviceaccounts' };
const CLUSTER_ROLES = { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles' };

let clock: FakeClock;
let cluster: SimCluster;
let server: SimServerHandle;

before(async () => {
  clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));
  cluster = createSimCluster({ clock });
  server = await startSimServer(cluster);
});

after(async () => {
  await server.stop();
  await cluster.close();
});

const find = (gvr: typeof SVC, ns: string, name: string): Readonly<KubeObject> | undefined => {
  try {
    return cluster.get(gvr, ns, name).object;
  } catch (err) {
    if (err instanceof ApiError && err.code === 404) return undefined;
    throw err;
  }
};

/** Waits (5 s at most) for the controller manager to make `check` true. */
async function eventually(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`${what}: not so after 5 s`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

function newNamespace(name: string): void {
  cluster.create(NS, '', { metadata: { name } });
}

describe('the kubernetes Service', () => {
  it('is ClusterIP 10.96.0.1, port 443 named https targeting the port the server listens on', () => {
    const svc = find(SVC, 'default', 'kubernetes') as KubeObject & { spec: Record<string, unknown> };
    assert.deepEqual(svc.metadata.labels, { component: 'apiserver', provider: 'kubernetes' });
    assert.equal(svc.spec['clusterIP'], '10.96.0.1');
    assert.equal(svc.spec['type'], 'ClusterIP');
    assert.deepEqual(svc.spec['ports'], [{ name: 'https', port: 443, protocol: 'TCP', targetPort: server.port }]);
    assert.equal(svc.spec['selector'], undefined, 'maintained by the server, not by a pod selector');
  });

  it('has Endpoints and an EndpointSlice naming 127.0.0.1 and that port', () => {
    const ep = find(EP, 'default', 'kubernetes') as KubeObject & { subsets: unknown };
    assert.deepEqual(ep.subsets, [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: server.port, protocol: 'TCP' }] }]);
    assert.equal(ep.metadata.labels?.['endpointslice.kubernetes.io/skip-mirror'], 'true');
    const slice = find(SLICES, 'default', 'kubernetes') as KubeObject & Record<string, unknown>;
    assert.equal(slice.metadata.labels?.['kubernetes.io/service-name'], 'kubernetes');
    assert.equal(slice['addressType'], 'IPv4');
    assert.deepEqual(slice['endpoints'], [{ addresses: ['127.0.0.1'], conditions: { ready: true } }]);
    assert.deepEqual(slice['ports'], [{ name: 'https', port: server.port, protocol: 'TCP' }]);
  });

  it('deleted or edited, it is all put back at the next reconcile (10 s), and left alone in between', () => {
    cluster.delete(SVC, 'default', 'kubernetes');
    cluster.delete(SLICES, 'default', 'kubernetes');
    const ep = structuredClone(find(EP, 'default', 'kubernetes')) as KubeObject;
    ep['subsets'] = [{ addresses: [{ ip: '10.1.2.3' }], ports: [{ name: 'https', port: 1, protocol: 'TCP' }] }];
    cluster.update(EP, 'default', 'kubernetes', ep);
    clock.step(9_000);
    assert.equal(find(SVC, 'default', 'kubernetes'), undefined);
    clock.step(1_000);
    assert.ok(find(SVC, 'default', 'kubernetes'));
    assert.ok(find(SLICES, 'default', 'kubernetes'));
    assert.deepEqual((find(EP, 'default', 'kubernetes') as KubeObject)['subsets'], [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: server.port, protocol: 'TCP' }] }]);
    const rv = cluster.resourceVersion;
    clock.step(10_000);
    assert.equal(cluster.resourceVersion, rv, 'nothing to correct: no write');
  });

  it('a server started on another port (a restart) moves the Service\'s target and the endpoints along', async () => {
    const other = createSimCluster({ clock });
    const first = await startSimServer(other, { insecureHttp: true });
    await first.stop();
    // Keep the old port taken, so the restart surely lands on another.
    const squatter = createServer();
    await new Promise<void>((r) => squatter.listen(first.port, '127.0.0.1', () => r()));
    const second = await startSimServer(other, { insecureHttp: true });
    squatter.close();
    try {
      assert.notEqual(first.port, second.port);
      const svc = other.get(SVC, 'default', 'kubernetes').object as KubeObject & { spec: { ports: { targetPort: number }[] } };
      assert.equal(svc.spec.ports[0]?.targetPort, second.port);
      assert.equal((other.get(SLICES, 'default', 'kubernetes').object as KubeObject & { ports: { port: number }[] }).ports[0]?.port, second.port);
      assert.equal((other.get(EP, 'default', 'kubernetes').object as KubeObject & { subsets: { ports: { port: number }[] }[] }).subsets[0]?.ports[0]?.port, second.port);
    } finally {
      await second.stop();
      await other.close();
    }
  });
});

describe('every namespace, as kube-controller-manager keeps it', () => {
  it('the system namespaces have kube-root-ca.crt (the server\'s CA) and the default ServiceAccount', async () => {
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      await eventually(`kube-root-ca.crt in ${ns}`, () => find(CM, ns, 'kube-root-ca.crt') !== undefined);
      await eventually(`default ServiceAccount in ${ns}`, () => find(SA, ns, 'default') !== undefined);
    }
    const cm = find(CM, 'kube-system', 'kube-root-ca.crt') as KubeObject & { data: Record<string, string> };
    assert.deepEqual(cm.data, { 'ca.crt': server.caPem });
    assert.match(cm.metadata.annotations?.['kubernetes.io/description'] ?? '', /^Contains a CA bundle that can be used to verify the kube-apiserver/);
  });

  it('a new namespace gets both; deleted or edited, they come back', async () => {
    newNamespace('fresh');
    await eventually('kube-root-ca.crt in fresh', () => find(CM, 'fresh', 'kube-root-ca.crt') !== undefined);
    await eventually('default ServiceAccount in fresh', () => find(SA, 'fresh', 'default') !== undefined);

    cluster.delete(SA, 'fresh', 'default');
    cluster.delete(CM, 'fresh', 'kube-root-ca.crt');
    await eventually('the ServiceAccount back', () => find(SA, 'fresh', 'default') !== undefined);
    await eventually('the ConfigMap back', () => find(CM, 'fresh', 'kube-root-ca.crt') !== undefined);

    const edited = structuredClone(find(CM, 'fresh', 'kube-root-ca.crt')) as KubeObject;
    edited['data'] = { 'ca.crt': 'not a CA' };
    cluster.update(CM, 'fresh', 'kube-root-ca.crt', edited);
    await eventually('the CA restored', () => (find(CM, 'fresh', 'kube-root-ca.crt') as KubeObject & { data: Record<string, string> }).data['ca.crt'] === server.caPem);
  });

  it('a terminating namespace is not filled again', async () => {
    newNamespace('leaving');
    cluster.patch(NS, '', 'leaving', 'merge', { metadata: { finalizers: ['example.com/hold'] } });
    await eventually('default ServiceAccount in leaving', () => find(SA, 'leaving', 'default') !== undefined);
    cluster.delete(NS, '', 'leaving');
    assert.ok(find(NS, '', 'leaving')?.metadata.deletionTimestamp, 'held by its finalizer, Terminating');
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(find(SA, 'leaving', 'default'), undefined);
    assert.equal(find(CM, 'leaving', 'kube-root-ca.crt'), undefined);
  });

  it('the controller manager shows as clients: its shared informers watching, each controller writing as its service account', async () => {
    const agent = (who: string) => `kube-controller-manager/v1.28.4 (linux/amd64) kubernetes/sim/${who}`;
    for (const controller of ['root-ca-cert-publisher', 'service-account-controller', 'clusterrole-aggregation-controller']) {
      await eventually(`${controller} has written`, () => cluster.clients.clients().some((c) => c.userAgent === agent(`system:serviceaccount:kube-system:${controller}`) && c.writes > 0));
    }
    const informers = cluster.clients.clients().find((c) => c.userAgent === agent('shared-informers'));
    assert.ok(informers);
    assert.deepEqual(informers.watches.filter((w) => w.open).map((w) => w.resource).sort(), ['clusterroles.rbac.authorization.k8s.io', 'configmaps', 'namespaces', 'serviceaccounts']);
  });
});

describe('aggregated ClusterRoles', () => {
  type Role = KubeObject & { rules?: { apiGroups?: string[]; resources?: string[]; verbs?: string[] }[] };
  const grants = (name: string, resource: string, verb: string) =>
    ((find(CLUSTER_ROLES, '', name) as Role | undefined)?.rules ?? []).some((r) => r.resources?.includes(resource) && r.verbs?.includes(verb));

  it('admin, edit and view gather the rules of the roles labelled for them', async () => {
    await eventually('view lists pods', () => grants('view', 'pods', 'list'));
    await eventually('edit creates deployments', () => grants('edit', 'deployments', 'create'));
    assert.ok(grants('edit', 'pods', 'list'), 'view flows into edit');
    await eventually('admin creates rolebindings', () => grants('admin', 'rolebindings', 'create'));
    assert.ok(grants('admin', 'deployments', 'create'), 'edit flows into admin');
  });

  it('a CRD author\'s role labelled aggregate-to-view reaches view, edit and admin; removed, it leaves them', async () => {
    cluster.create(CLUSTER_ROLES, '', {
      metadata: { name: 'widgets-view', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
      rules: [{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get', 'list', 'watch'] }],
    });
    for (const role of ['view', 'edit', 'admin']) await eventually(`${role} reads widgets`, () => grants(role, 'widgets', 'list'));
    cluster.delete(CLUSTER_ROLES, '', 'widgets-view');
    for (const role of ['view', 'edit', 'admin']) await eventually(`${role} no longer reads widgets`, () => !grants(role, 'widgets', 'list'));
  });
});
