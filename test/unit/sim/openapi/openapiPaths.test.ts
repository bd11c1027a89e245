// The paths of the OpenAPI documents over HTTP, as kube-apiserver v1.28 lists them: lists across
// namespaces, the deprecated /watch/ paths of the built-in kinds, a CRD's list across namespaces,
// and subresources with the methods they take (a Pod's eviction is a POST, a Namespace's finalize a PUT).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../server/httpClient.ts';
import { suiteServer } from '../server/suiteServer.ts';
import { CRDS, cronTabCrd } from './crdFixtures.ts';

const sim = suiteServer();

const STREAMED = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf', 'application/json;stream=watch', 'application/vnd.kubernetes.protobuf;stream=watch'];

describe('/openapi/v2 paths', () => {
  it('lists a namespaced kind across namespaces, as kubectl get -A and client-go users find it', async () => {
    const paths = (await call(sim.server, 'GET', '/openapi/v2')).json().paths;
    const list = paths['/api/v1/pods'].get;
    assert.equal(list.operationId, 'listCoreV1PodForAllNamespaces');
    assert.equal(list['x-kubernetes-action'], 'list');
    assert.deepEqual(list['x-kubernetes-group-version-kind'], { group: '', kind: 'Pod', version: 'v1' });
    assert.deepEqual(list.produces, STREAMED);
    assert.equal(list.responses['200'].schema.$ref, '#/definitions/io.k8s.api.core.v1.PodList');
    const names = list.parameters.map((p: { name: string }) => p.name);
    for (const q of ['allowWatchBookmarks', 'sendInitialEvents', 'watch', 'labelSelector']) assert.ok(names.includes(q), q);
    assert.equal(paths['/apis/apps/v1/deployments'].get.operationId, 'listAppsV1DeploymentForAllNamespaces');
    // Cluster-scoped kinds have no such path of their own beyond their collection.
    assert.equal(paths['/api/v1/nodes'].get.operationId, 'listCoreV1Node');
  });

  it('lists the /watch/ paths of each watchable kind, answering WatchEvents', async () => {
    const paths = (await call(sim.server, 'GET', '/openapi/v2')).json().paths;
    const expected: [string, string, string][] = [
      ['/api/v1/watch/namespaces/{namespace}/pods', 'watchCoreV1NamespacedPodList', 'watchlist'],
      ['/api/v1/watch/namespaces/{namespace}/pods/{name}', 'watchCoreV1NamespacedPod', 'watch'],
      ['/api/v1/watch/pods', 'watchCoreV1PodListForAllNamespaces', 'watchlist'],
      ['/api/v1/watch/nodes', 'watchCoreV1NodeList', 'watchlist'],
      ['/api/v1/watch/nodes/{name}', 'watchCoreV1Node', 'watch'],
      ['/apis/apps/v1/watch/namespaces/{namespace}/deployments/{name}', 'watchAppsV1NamespacedDeployment', 'watch'],
    ];
    for (const [path, operationId, action] of expected) {
      const op = paths[path]?.get;
      assert.ok(op, path);
      assert.equal(op.operationId, operationId);
      assert.equal(op['x-kubernetes-action'], action);
      assert.equal(op.responses['200'].schema.$ref, '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent');
    }
    // Create-only kinds have none.
    assert.equal(Object.keys(paths).some((p) => p.includes('/watch/') && p.includes('tokenreviews')), false);
  });

  it('gives each subresource the methods it takes, with its own kind', async () => {
    const paths = (await call(sim.server, 'GET', '/openapi/v2')).json().paths;
    const eviction = paths['/api/v1/namespaces/{namespace}/pods/{name}/eviction'];
    assert.deepEqual(Object.keys(eviction).filter((k) => k !== 'parameters'), ['post']);
    assert.equal(eviction.post.operationId, 'createCoreV1NamespacedPodEviction');
    assert.deepEqual(eviction.post['x-kubernetes-group-version-kind'], { group: 'policy', kind: 'Eviction', version: 'v1' });
    assert.deepEqual(Object.keys(paths['/api/v1/namespaces/{name}/finalize']).filter((k) => k !== 'parameters'), ['put']);
    assert.equal(paths['/api/v1/namespaces/{namespace}/serviceaccounts/{name}/token'].post.operationId, 'createCoreV1NamespacedServiceAccountToken');
  });

  it('reads discovery in every media type, and /version/ in JSON only', async () => {
    const paths = (await call(sim.server, 'GET', '/openapi/v2')).json().paths;
    assert.deepEqual(paths['/apis/apps/v1/'].get.consumes, ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf']);
    assert.deepEqual(paths['/version/'].get.produces, ['application/json']);
  });
});

describe('/openapi/v3 paths of a CRD', () => {
  it('lists a namespaced custom resource across namespaces, and has no /watch/ paths', async () => {
    sim.cluster.create(CRDS, '', cronTabCrd());
    try {
      const doc = (await call(sim.server, 'GET', '/openapi/v3/apis/stable.example.com/v1')).json();
      const list = doc.paths['/apis/stable.example.com/v1/crontabs']?.get;
      assert.ok(list, Object.keys(doc.paths).join(' '));
      assert.equal(list['x-kubernetes-action'], 'list');
      assert.equal(list.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/com.example.stable.v1.CronTabList');
      assert.equal(Object.keys(doc.paths).some((p) => p.includes('/watch/')), false);
      const v2 = (await call(sim.server, 'GET', '/openapi/v2')).json();
      assert.ok(v2.paths['/apis/stable.example.com/v1/crontabs']);
    } finally {
      sim.cluster.delete(CRDS, '', 'crontabs.stable.example.com');
    }
  });
});
