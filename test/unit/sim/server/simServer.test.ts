// The HTTP layer against a real SimCluster in process: auth, discovery shapes, watch streaming
// (chunked lines, bookmarks, timeout, 410), Tables, faults, client insight, resilience.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { FakeClock } from '../../../../src/shared/clock.ts';
import { createSimCluster, type SimCluster } from '../../../../src/sim/simCluster.ts';
import { startSimServer, type SimServerHandle } from '../../../../src/sim/server/simServer.ts';
import { call, createNamespace, openWatch } from './httpClient.ts';

const REFERENCE = '/work/shared/reference/discovery';
const KUBECTL_TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

let clock: FakeClock;
let cluster: SimCluster;
let server: SimServerHandle;
let stateDir: string;

before(async () => {
  clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));
  cluster = createSimCluster({ clock, bookmarkIntervalMs: 1000, watchCacheSize: 100 });
  stateDir = await mkdtemp(join(tmpdir(), 'sim-server-test-'));
  server = await startSimServer(cluster, { stateDir });
});

after(async () => {
  await server.stop();
  await cluster.close();
  await rm(stateDir, { recursive: true, force: true });
});

describe('the kubeconfig it writes', () => {
  it('without a state dir: in a scratch folder that stop() removes, so /tmp does not fill up', async () => {
    const scratch = await startSimServer(cluster);
    assert.ok(existsSync(scratch.kubeconfigPath));
    assert.match(readFileSync(scratch.kubeconfigPath, 'utf8'), new RegExp(scratch.url.replace(/[.:/]/g, '\\$&')));
    await scratch.stop();
    assert.equal(existsSync(dirname(scratch.kubeconfigPath)), false);
  });

  it('with a state dir: in it, the user\'s to keep (the next start reuses its CA and state)', () => {
    assert.equal(server.kubeconfigPath, join(stateDir, 'kubeconfig'));
    assert.ok(existsSync(server.kubeconfigPath));
  });
});

async function createConfigMap(ns: string, name: string, data: Record<string, string> = {}) {
  const r = await call(server, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { body: { metadata: { name }, data } });
  assert.equal(r.status, 201, r.body);
  return r.json();
}

describe('authentication and basics', () => {
  it('demands the bearer token on every path', async () => {
    for (const path of ['/api', '/version', '/healthz', '/api/v1/namespaces', '/controller-lab/admin/state']) {
      const r = await call(server, 'GET', path, { token: null });
      assert.equal(r.status, 401, path);
      assert.equal(r.json().reason, 'Unauthorized');
    }
    assert.equal((await call(server, 'GET', '/version', { token: `${server.token}x` })).status, 401);
  });

  it('serves /version, health checks and a kubeconfig that points here', async () => {
    const version = (await call(server, 'GET', '/version')).json();
    assert.equal(version.gitVersion, 'v1.28.4');
    assert.equal(version.major, '1');
    assert.equal(version.minor, '28');
    for (const path of ['/healthz', '/livez', '/readyz']) assert.equal((await call(server, 'GET', path)).body, 'ok');
    assert.match((await call(server, 'GET', '/readyz?verbose')).body, /^\[\+\]ping ok\n[^]*\[\+\]persistence ok\n[^]*readyz check passed\n$/);
    assert.equal((await call(server, 'GET', '/livez/ping')).body, 'ok');
    assert.match(server.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    const kubeconfig = readFileSync(server.kubeconfigPath, 'utf8');
    assert.equal(kubeconfig, server.kubeconfig);
    assert.ok(kubeconfig.includes(`server: ${server.url}`));
    assert.ok(kubeconfig.includes(`token: ${server.token}`));
    assert.ok(kubeconfig.includes(`certificate-authority-data: ${Buffer.from(server.caPem).toString('base64')}`));
    assert.equal(statSync(server.kubeconfigPath).mode & 0o777, 0o600);
  });
});

describe('discovery', () => {
  it('answers the classic documents in the reference shapes', async () => {
    const api = (await call(server, 'GET', '/api')).json();
    assert.deepEqual(api, { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: `127.0.0.1:${server.port}` }] });
    const apis = (await call(server, 'GET', '/apis')).json();
    assert.equal(apis.kind, 'APIGroupList');
    assert.deepEqual(apis.groups.find((g: { name: string }) => g.name === 'apps'), {
      name: 'apps', versions: [{ groupVersion: 'apps/v1', version: 'v1' }], preferredVersion: { groupVersion: 'apps/v1', version: 'v1' },
    });
    const group = (await call(server, 'GET', '/apis/apps')).json();
    assert.equal(group.kind, 'APIGroup');
    assert.equal(group.name, 'apps');

    // Same entries as the real server for what we serve (storageVersionHash is opaque).
    const reference = JSON.parse(readFileSync(join(REFERENCE, 'apis_apps_v1.json'), 'utf8'));
    const ours = (await call(server, 'GET', '/apis/apps/v1')).json();
    assert.equal(ours.kind, 'APIResourceList');
    assert.equal(ours.apiVersion, 'v1');
    assert.equal(ours.groupVersion, 'apps/v1');
    const strip = (e: Record<string, unknown>) => ({ ...e, storageVersionHash: undefined });
    for (const name of ['deployments', 'deployments/scale', 'deployments/status', 'replicasets', 'statefulsets/scale']) {
      const want = reference.resources.find((r: { name: string }) => r.name === name);
      const got = ours.resources.find((r: { name: string }) => r.name === name);
      assert.deepEqual(strip(got), strip(want), name);
    }
    const names = ours.resources.map((r: { name: string }) => r.name);
    assert.deepEqual(names, [...names].sort());

    const core = (await call(server, 'GET', '/api/v1')).json();
    assert.equal(core.kind, 'APIResourceList');
    assert.equal(core.groupVersion, 'v1');
    assert.equal(core.apiVersion, undefined);
    const cm = core.resources.find((r: { name: string }) => r.name === 'configmaps');
    assert.deepEqual(strip(cm), strip(JSON.parse(readFileSync(join(REFERENCE, 'api_v1.json'), 'utf8')).resources.find((r: { name: string }) => r.name === 'configmaps')));
  });

  it('answers the aggregated form when asked first', async () => {
    const r = await call(server, 'GET', '/apis', { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json' });
    assert.equal(r.headers['content-type'], 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    const doc = r.json();
    assert.equal(doc.kind, 'APIGroupDiscoveryList');
    assert.equal(doc.apiVersion, 'apidiscovery.k8s.io/v2');
    const apps = doc.items.find((i: { metadata: { name: string } }) => i.metadata.name === 'apps');
    const deployments = apps.versions[0].resources.find((x: { resource: string }) => x.resource === 'deployments');
    assert.equal(deployments.scope, 'Namespaced');
    assert.deepEqual(deployments.responseKind, { group: '', version: '', kind: 'Deployment' });
    assert.deepEqual(deployments.subresources.find((s: { subresource: string }) => s.subresource === 'scale').responseKind, { group: 'autoscaling', version: 'v1', kind: 'Scale' });
    const core = (await call(server, 'GET', '/api', { accept: 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json' })).json();
    assert.equal(core.apiVersion, 'apidiscovery.k8s.io/v2beta1');
    assert.equal(core.items[0].metadata.name, '');
  });

  it('lists resources a CRD makes served, and drops them when it goes', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gadgets.unit.example.com' },
      spec: {
        group: 'unit.example.com',
        names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
        scope: 'Cluster',
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
      },
    };
    assert.equal((await call(server, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd })).status, 201);
    const list = (await call(server, 'GET', '/apis/unit.example.com/v1')).json();
    assert.deepEqual(list.resources.map((r: { name: string; namespaced: boolean }) => [r.name, r.namespaced]), [['gadgets', false]]);
    assert.ok((await call(server, 'GET', '/apis')).json().groups.some((g: { name: string }) => g.name === 'unit.example.com'));
    const created = await call(server, 'POST', '/apis/unit.example.com/v1/gadgets', { body: { apiVersion: 'unit.example.com/v1', kind: 'Gadget', metadata: { name: 'g1' } } });
    assert.equal(created.status, 201, created.body);
    // A namespace in the path of a cluster-scoped resource addresses nothing.
    assert.equal((await call(server, 'GET', '/apis/unit.example.com/v1/namespaces/default/gadgets')).status, 404);
    assert.equal((await call(server, 'DELETE', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.unit.example.com')).status, 200);
    assert.equal((await call(server, 'GET', '/apis/unit.example.com/v1')).status, 404);
  });

  it('publishes OpenAPI documents (protobuf for v2 when asked, one v3 document per group version)', async () => {
    const v2 = await call(server, 'GET', '/openapi/v2', { accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' });
    assert.equal(v2.status, 200);
    assert.equal(v2.headers['content-type'], 'application/octet-stream');
    assert.equal((await call(server, 'GET', '/openapi/v2')).json().swagger, '2.0');
    assert.ok((await call(server, 'GET', '/openapi/v3')).json().paths['apis/apps/v1']);
    assert.equal((await call(server, 'GET', '/openapi/v3/apis/apps/v1')).status, 200);
  });
});

describe('watch over HTTP', () => {
  it('streams one JSON event per line on a chunked application/json response', async () => {
    await createConfigMap('default', 'w-a');
    const list = (await call(server, 'GET', '/api/v1/namespaces/default/configmaps')).json();
    const watch = await openWatch(server, `/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${list.metadata.resourceVersion}`);
    assert.equal(watch.status, 200);
    assert.equal(watch.headers['content-type'], 'application/json');
    assert.equal(watch.headers['transfer-encoding'], 'chunked');
    await createConfigMap('default', 'w-b');
    await call(server, 'PATCH', '/api/v1/namespaces/default/configmaps/w-b', { body: { data: { x: '1' } }, contentType: 'application/merge-patch+json' });
    await call(server, 'DELETE', '/api/v1/namespaces/default/configmaps/w-b');
    const lines = await watch.waitForLines(3);
    const events = lines.map((l) => JSON.parse(l));
    assert.deepEqual(events.map((e) => `${e.type} ${e.object.metadata.name}`), ['ADDED w-b', 'MODIFIED w-b', 'DELETED w-b']);
    watch.close();
  });

  it('watches one object through the deprecated /watch/ prefix; ?watch=1 on its path is a plain GET', async () => {
    await createConfigMap('default', 'single');
    const rv = cluster.resourceVersion;
    const plain = await call(server, 'GET', `/api/v1/namespaces/default/configmaps/single?watch=1&resourceVersion=${rv}`);
    assert.equal(plain.status, 200);
    assert.equal(plain.json().kind, 'ConfigMap');
    const byName = await openWatch(server, `/api/v1/watch/namespaces/default/configmaps/single?resourceVersion=${rv}`);
    const prefixed = await openWatch(server, `/api/v1/watch/namespaces/default/configmaps?resourceVersion=${rv}`);
    await createConfigMap('default', 'other');
    await call(server, 'PATCH', '/api/v1/namespaces/default/configmaps/single', { body: { data: { a: '1' } }, contentType: 'application/merge-patch+json' });
    const [one] = (await byName.waitForLines(1)).map((l) => JSON.parse(l));
    assert.equal(`${one.type} ${one.object.metadata.name}`, 'MODIFIED single');
    const both = (await prefixed.waitForLines(2)).map((l) => JSON.parse(l));
    assert.deepEqual(both.map((e) => `${e.type} ${e.object.metadata.name}`), ['ADDED other', 'MODIFIED single']);
    assert.equal(byName.lines.length, 1);
    byName.close();
    prefixed.close();
  });

  it('sends bookmarks and ends cleanly at timeoutSeconds', async () => {
    const watch = await openWatch(server, '/api/v1/namespaces/default/configmaps?watch=true&allowWatchBookmarks=true&timeoutSeconds=5&resourceVersion=' + cluster.resourceVersion);
    clock.step(1000);
    const [bookmark] = await watch.waitForLines(1);
    const event = JSON.parse(bookmark!);
    assert.equal(event.type, 'BOOKMARK');
    assert.equal(event.object.kind, 'ConfigMap');
    assert.equal(event.object.metadata.resourceVersion, String(cluster.resourceVersion));
    clock.step(5000);
    await watch.ended;
  });

  it('a negative timeoutSeconds ends the watch at once, as kube-apiserver\'s timer that has already run out', { timeout: 5000 }, async () => {
    const watch = await openWatch(server, '/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=-1&resourceVersion=' + cluster.resourceVersion);
    assert.equal(watch.status, 200);
    clock.step(1);
    await watch.ended;
  });

  it('streams a list (sendInitialEvents) ending with the initial-events-end bookmark', async () => {
    await createNamespace(server, 'streamed');
    await createConfigMap('streamed', 's1');
    await createConfigMap('streamed', 's2');
    const watch = await openWatch(server, '/api/v1/namespaces/streamed/configmaps?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true');
    const events = (await watch.waitForLines(4)).map((l) => JSON.parse(l));
    // The namespace's CA ConfigMap (the controller manager's) comes first, as in any cluster.
    assert.deepEqual(events.map((e) => `${e.type} ${e.object.metadata.name ?? ''}`), ['ADDED kube-root-ca.crt', 'ADDED s1', 'ADDED s2', 'BOOKMARK ']);
    assert.equal(events[3].object.metadata.annotations['k8s.io/initial-events-end'], 'true');
    watch.close();
  });

  it('a too-old resourceVersion: HTTP 200, one ERROR event with Status 410 Expired, then the end', async () => {
    const first = await createConfigMap('default', 'old-1');
    await createConfigMap('default', 'old-2');
    cluster.faults.compact('now');
    const watch = await openWatch(server, `/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${first.metadata.resourceVersion}`);
    assert.equal(watch.status, 200);
    await watch.ended;
    assert.equal(watch.lines.length, 1);
    const event = JSON.parse(watch.lines[0]!);
    assert.deepEqual(Object.keys(event), ['type', 'object']);
    assert.equal(event.type, 'ERROR');
    assert.equal(event.object.kind, 'Status');
    assert.equal(event.object.apiVersion, 'v1');
    assert.equal(event.object.status, 'Failure');
    assert.equal(event.object.reason, 'Expired');
    assert.equal(event.object.code, 410);
    assert.match(event.object.message, /^too old resource version: \d+ \(\d+\)$/);

    const exact = await call(server, 'GET', `/api/v1/namespaces/default/configmaps?resourceVersion=${first.metadata.resourceVersion}&resourceVersionMatch=Exact`);
    assert.equal(exact.status, 410);
    assert.equal(exact.json().code, 410);
  });

  it('a client disconnect releases the watcher', async () => {
    const watch = await openWatch(server, '/api/v1/namespaces/kube-system/configmaps?watch=1');
    const openBefore = cluster.clients.clients().flatMap((c) => c.watches).filter((w) => w.open && w.namespace === 'kube-system').length;
    assert.equal(openBefore, 1);
    watch.close();
    for (let i = 0; i < 50; i++) {
      const open = cluster.clients.clients().flatMap((c) => c.watches).filter((w) => w.open && w.namespace === 'kube-system').length;
      if (open === 0) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.fail('the watch is still open after the client went away');
  });

  it('streams Tables to kubectl get -w, columns only in the first event', async () => {
    await createNamespace(server, 'tables');
    const watch = await openWatch(server, `/api/v1/namespaces/tables/configmaps?watch=1&resourceVersion=${cluster.resourceVersion}`, KUBECTL_TABLE);
    await createConfigMap('tables', 't1', { a: '1' });
    await createConfigMap('tables', 't2');
    const [one, two] = (await watch.waitForLines(2)).map((l) => JSON.parse(l));
    assert.equal(one.type, 'ADDED');
    assert.equal(one.object.kind, 'Table');
    assert.deepEqual(one.object.columnDefinitions.map((c: { name: string }) => c.name), ['Name', 'Data', 'Age']);
    assert.deepEqual(one.object.rows[0].cells, ['t1', 1, '0s']);
    assert.equal(one.object.rows[0].object.kind, 'PartialObjectMetadata');
    assert.deepEqual(two.object.columnDefinitions, []);
    watch.close();
  });
});

describe('resources', () => {
  it('lists as a Table for kubectl get, as JSON otherwise', async () => {
    await createNamespace(server, 'listing');
    await createConfigMap('listing', 'a', { k: 'v' });
    const table = (await call(server, 'GET', '/api/v1/namespaces/listing/configmaps?limit=500', { accept: KUBECTL_TABLE })).json();
    assert.equal(table.kind, 'Table');
    assert.ok(Number(table.metadata.resourceVersion) > 0);
    assert.deepEqual(table.rows.map((r: { cells: unknown[] }) => r.cells[0]), ['a', 'kube-root-ca.crt']);
    const one = (await call(server, 'GET', '/api/v1/namespaces/listing/configmaps/a?includeObject=Object', { accept: KUBECTL_TABLE })).json();
    assert.equal(one.rows[0].object.kind, 'ConfigMap');
    const json = (await call(server, 'GET', '/api/v1/namespaces/listing/configmaps')).json();
    assert.equal(json.kind, 'ConfigMapList');
    assert.equal(json.apiVersion, 'v1');
  });

  it('dry-run creates answer 201 and persist nothing; YAML bodies are accepted', async () => {
    const dry = await call(server, 'POST', '/api/v1/namespaces/default/configmaps?dryRun=All', { body: { metadata: { name: 'dry' } } });
    assert.equal(dry.status, 201);
    assert.equal((await call(server, 'GET', '/api/v1/namespaces/default/configmaps/dry')).status, 404);
    const yaml = await call(server, 'POST', '/api/v1/namespaces/default/configmaps', { body: 'metadata:\n  name: from-yaml\ndata:\n  k: v\n', contentType: 'application/yaml' });
    assert.equal(yaml.status, 201, yaml.body);
    assert.equal(yaml.json().data.k, 'v');
  });

  it('deletes with finalizers answer 200 (202 is only for orphanDependents=false) and keep the object', async () => {
    await call(server, 'POST', '/api/v1/namespaces/default/configmaps', { body: { metadata: { name: 'fin', finalizers: ['x/y'] } } });
    const del = await call(server, 'DELETE', '/api/v1/namespaces/default/configmaps/fin', { body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' } });
    assert.equal(del.status, 200, del.body);
    assert.ok(del.json().metadata.deletionTimestamp);
  });

  it('serves /scale and /status', async () => {
    const deploy = {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' },
      spec: { replicas: 1, selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
    };
    assert.equal((await call(server, 'POST', '/apis/apps/v1/namespaces/default/deployments', { body: deploy })).status, 201);
    const scale = await call(server, 'PATCH', '/apis/apps/v1/namespaces/default/deployments/d/scale', { body: { spec: { replicas: 3 } }, contentType: 'application/merge-patch+json' });
    assert.equal(scale.status, 200, scale.body);
    assert.equal(scale.json().kind, 'Scale');
    assert.equal((await call(server, 'GET', '/apis/apps/v1/namespaces/default/deployments/d')).json().spec.replicas, 3);
    const status = await call(server, 'PATCH', '/apis/apps/v1/namespaces/default/deployments/d/status', { body: { status: { replicas: 3, readyReplicas: 3 } }, contentType: 'application/merge-patch+json' });
    assert.equal(status.status, 200, status.body);
    assert.equal(status.json().status.readyReplicas, 3);
    assert.equal((await call(server, 'GET', '/apis/apps/v1/namespaces/default/deployments/d/exec')).status, 404);
  });
});

describe('faults and insight over the admin endpoint', () => {
  it('injects 429s with Retry-After, spares the admin endpoint, and resets', async () => {
    const set = await call(server, 'POST', '/controller-lab/admin/http-faults', { body: { errorRate: 1, errorCode: 429, retryAfterSeconds: 3 } });
    assert.equal(set.status, 200, set.body);
    const refused = await call(server, 'GET', '/api/v1/namespaces');
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['retry-after'], '3');
    assert.equal(refused.json().reason, 'TooManyRequests');
    assert.equal(refused.json().details.retryAfterSeconds, 3);
    assert.equal((await call(server, 'GET', '/controller-lab/admin/state')).status, 200);
    assert.equal((await call(server, 'POST', '/controller-lab/admin/reset', { body: {} })).status, 200);
    assert.equal((await call(server, 'GET', '/api/v1/namespaces')).status, 200);
  });

  it('adds latency to the paths a filter names', async () => {
    await call(server, 'POST', '/controller-lab/admin/http-faults', { body: { latencyMs: 150, pathFilter: '/configmaps' } });
    try {
      let start = performance.now();
      assert.equal((await call(server, 'GET', '/api/v1/namespaces/default/configmaps')).status, 200);
      assert.ok(performance.now() - start >= 140, 'the filtered path is slowed down');
      start = performance.now();
      assert.equal((await call(server, 'GET', '/api/v1/namespaces')).status, 200);
      assert.ok(performance.now() - start < 140, 'other paths are not');
    } finally {
      await call(server, 'POST', '/controller-lab/admin/reset', { body: {} });
    }
  });

  it('arms a conflict, drops watches, compacts, and validates arguments', async () => {
    await createConfigMap('default', 'conflicted');
    assert.equal((await call(server, 'POST', '/controller-lab/admin/conflict', { body: { resource: 'configmaps', namespace: 'default', name: 'conflicted' } })).status, 200);
    const patch = await call(server, 'PATCH', '/api/v1/namespaces/default/configmaps/conflicted', { body: { data: { a: 'b' } }, contentType: 'application/merge-patch+json' });
    assert.equal(patch.status, 409);
    const watch = await openWatch(server, '/api/v1/configmaps?watch=1&resourceVersion=' + cluster.resourceVersion);
    const dropped = (await call(server, 'POST', '/controller-lab/admin/drop-watches', { body: {} })).json();
    assert.ok(dropped.dropped >= 1);
    await watch.ended;
    const compacted = (await call(server, 'POST', '/controller-lab/admin/compact', { body: {} })).json();
    assert.equal(compacted.compactedResourceVersion, String(cluster.resourceVersion));
    const bad = await call(server, 'POST', '/controller-lab/admin/http-faults', { body: { errorRate: 7 } });
    assert.equal(bad.status, 400);
    assert.equal((await call(server, 'POST', '/controller-lab/admin/nonsense', { body: {} })).status, 404);
    assert.equal((await call(server, 'GET', '/controller-lab/admin/compact')).status, 405);
  });

  it('reports each client with its lists, watches and writes', async () => {
    const ua = { 'User-Agent': 'insight-test/1.0' };
    await call(server, 'POST', '/api/v1/namespaces/default/configmaps', { body: { metadata: { name: 'insight' } }, headers: ua });
    await call(server, 'GET', '/api/v1/namespaces/default/configmaps', { headers: ua });
    await call(server, 'GET', '/api/v1/namespaces/default/configmaps/nope', { headers: ua });
    const clients = (await call(server, 'GET', '/controller-lab/admin/clients')).json().clients;
    const me = clients.find((c: { userAgent: string }) => c.userAgent === 'insight-test/1.0');
    assert.ok(me, JSON.stringify(clients.map((c: { userAgent: string }) => c.userAgent)));
    assert.equal(me.lists, 1);
    assert.equal(me.writes, 1);
    assert.equal(me.errors, 1);
    assert.match(me.tokenId, /^[0-9a-f]{12}$/);
  });
});

describe('resilience', () => {
  it('an exception in a handler is a 500 Status and the server keeps serving', async () => {
    const broken = Object.create(cluster) as SimCluster;
    broken.list = () => {
      throw new TypeError('boom');
    };
    const bugs: string[] = [];
    const other = await startSimServer(broken, { onInternalError: (m) => bugs.push(m) });
    try {
      const r = await call(other, 'GET', '/api/v1/namespaces');
      assert.equal(r.status, 500);
      assert.equal(bugs.length, 1);
      assert.match(bugs[0]!, /^GET \/api\/v1\/namespaces: TypeError: boom/);
      assert.equal(r.json().reason, 'InternalError');
      assert.match(r.json().message, /boom/);
      assert.equal((await call(other, 'GET', '/api/v1/namespaces/default')).status, 200);
    } finally {
      await other.stop();
    }
  });

  it('serves plain HTTP with --insecure-http, still behind the token', async () => {
    const plain = await startSimServer(cluster, { insecureHttp: true });
    try {
      assert.match(plain.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.equal(plain.caPem, '');
      assert.ok(!plain.kubeconfig.includes('certificate-authority-data'));
      assert.equal((await call(plain, 'GET', '/version', { token: null })).status, 401);
      assert.equal((await call(plain, 'GET', '/version')).status, 200);
    } finally {
      await plain.stop();
    }
  });

  it('keeps its CA in the state dir across restarts', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'sim-ca-'));
    const a = await startSimServer(cluster, { stateDir });
    await a.stop();
    const b = await startSimServer(cluster, { stateDir });
    await b.stop();
    assert.equal(a.caPem, b.caPem);
    assert.equal(b.kubeconfigPath, join(stateDir, 'kubeconfig'));
  });
});
