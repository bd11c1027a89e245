// Real kubectl against `controller-lab sim` started as a real process. Each test works in its own
// namespace, so the tests run concurrently (kubectl start-up dominates their time).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createNamespace, kubectl, kubectlBackground, kubectlOk, rawRequest, simForFile, type Json } from './simProcess.ts';

const sim = simForFile();

const namespace = (name: string): Promise<string> => createNamespace(sim, name);

function deploymentYaml(ns: string, replicas: number, image: string): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: ${ns}
  labels:
    app: web
spec:
  replicas: ${replicas}
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: ${image}
        ports:
        - containerPort: 80
`;
}

async function getJson(args: string[]): Promise<Json> {
  return JSON.parse(await kubectlOk(sim, [...args, '-o', 'json']));
}

/** `kubectl get -w --output-watch-events -o json` prints one indented JSON document per event. */
function parseWatchJson(out: string): { type: string; object: Json }[] {
  return out
    .split(/\n(?=\{)/) // compact (one line each) or indented: every document starts a line with {
    .map((s) => s.trim())
    .filter((s) => s.endsWith('}'))
    .map((s) => JSON.parse(s));
}

describe('kubectl against controller-lab sim', { concurrency: true }, () => {
  it('speaks HTTP/2 to it, as to kube-apiserver (Go\'s http2 debug log names the connection it made, once ALPN chose h2)', async () => {
    const r = await kubectl(sim, ['get', 'namespaces'], { env: { GODEBUG: 'http2debug=1' } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /http2: Transport creating client conn/);
  });

  it('creates a namespace and reads it back (table and JSON)', async () => {
    const ns = await namespace('conf-ns');
    const json = await getJson(['get', 'namespace', ns]);
    assert.equal(json['kind'], 'Namespace');
    assert.equal(json['metadata'].name, ns);
    assert.match(json['metadata'].uid, /^[0-9a-f-]{36}$/);
    const table = await kubectlOk(sim, ['get', 'namespace', ns]);
    assert.match(table, /^NAME\s+STATUS\s+AGE\n/);
    assert.match(table, new RegExp(`^${ns}\\s+Active\\s+\\d+s`, 'm'));
  });

  it('applies a Deployment, re-applies a change (strategic merge patch) and scales it', async () => {
    const ns = await namespace('conf-apply');
    assert.match(await kubectlOk(sim, ['apply', '-f', '-'], deploymentYaml(ns, 2, 'nginx:1.25')), /deployment.apps\/web created/);
    const first = await getJson(['-n', ns, 'get', 'deployment', 'web']);
    assert.equal(first['metadata'].generation, 1);
    assert.ok(first['metadata'].annotations['kubectl.kubernetes.io/last-applied-configuration']);

    assert.match(await kubectlOk(sim, ['apply', '-f', '-'], deploymentYaml(ns, 3, 'nginx:1.26')), /deployment.apps\/web configured/);
    const second = await getJson(['-n', ns, 'get', 'deployment', 'web']);
    assert.equal(second['spec'].replicas, 3);
    assert.equal(second['spec'].template.spec.containers[0].image, 'nginx:1.26');
    assert.equal(second['spec'].template.spec.containers[0].ports[0].containerPort, 80);
    assert.equal(second['metadata'].generation, 2);
    assert.ok(Number(second['metadata'].resourceVersion) > Number(first['metadata'].resourceVersion));

    assert.match(await kubectlOk(sim, ['apply', '-f', '-'], deploymentYaml(ns, 3, 'nginx:1.26')), /deployment.apps\/web unchanged/);

    assert.match(await kubectlOk(sim, ['-n', ns, 'scale', 'deployment', 'web', '--replicas=4']), /deployment.apps\/web scaled/);
    const scaled = await getJson(['-n', ns, 'get', 'deployment', 'web']);
    assert.equal(scaled['spec'].replicas, 4);
    assert.equal(scaled['metadata'].generation, 3);

    const table = await kubectlOk(sim, ['-n', ns, 'get', 'deployments']);
    assert.match(table, /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\n/);
    assert.match(table, /^web\s+0\/4\s+/m);
  });

  it('patches with merge, JSON and strategic patches, labels and annotates', async () => {
    const ns = await namespace('conf-patch');
    await kubectlOk(sim, ['apply', '-f', '-'], deploymentYaml(ns, 1, 'nginx:1.25'));
    await kubectlOk(sim, ['-n', ns, 'create', 'configmap', 'a', '--from-literal=k=v1']);
    await kubectlOk(sim, ['-n', ns, 'create', 'configmap', 'b', '--from-literal=k=v1']);

    await kubectlOk(sim, ['-n', ns, 'patch', 'configmap', 'a', '--type=merge', '-p', '{"data":{"k":"v2"}}']);
    await kubectlOk(sim, ['-n', ns, 'patch', 'configmap', 'a', '--type=json', '-p', '[{"op":"add","path":"/data/k2","value":"x"}]']);
    assert.deepEqual((await getJson(['-n', ns, 'get', 'configmap', 'a']))['data'], { k: 'v2', k2: 'x' });

    // Strategic: containers merge by name, so the port survives an image-only patch.
    await kubectlOk(sim, ['-n', ns, 'patch', 'deployment', 'web', '-p', '{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"nginx:1.27"}]}}}}']);
    const container = (await getJson(['-n', ns, 'get', 'deployment', 'web']))['spec'].template.spec.containers;
    assert.equal(container.length, 1);
    assert.equal(container[0].image, 'nginx:1.27');
    assert.equal(container[0].ports[0].containerPort, 80);

    await kubectlOk(sim, ['-n', ns, 'label', 'configmap', 'a', 'tier=front']);
    await kubectlOk(sim, ['-n', ns, 'annotate', 'configmap', 'b', 'note=hello']);
    assert.equal((await kubectlOk(sim, ['-n', ns, 'get', 'configmaps', '-l', 'tier=front', '-o', 'name'])).trim(), 'configmap/a');
    // Every namespace also holds the cluster's CA ConfigMap, unlabelled.
    assert.equal((await kubectlOk(sim, ['-n', ns, 'get', 'configmaps', '-l', 'tier!=front', '-o', 'name'])).trim(), 'configmap/b\nconfigmap/kube-root-ca.crt');
    assert.equal((await getJson(['-n', ns, 'get', 'configmap', 'b']))['metadata'].annotations.note, 'hello');
    const wide = await kubectlOk(sim, ['-n', ns, 'get', 'configmaps', '--show-labels']);
    assert.match(wide, /^a\s+2\s+\S+\s+tier=front$/m);
  });

  it('watches with --output-watch-events: ADDED, MODIFIED, DELETED with rising resourceVersions', async () => {
    const ns = await namespace('conf-watch');
    await kubectlOk(sim, ['-n', ns, 'create', 'configmap', 'seed', '--from-literal=k=v']);
    const json = kubectlBackground(sim, ['-n', ns, 'get', 'configmaps', '-w', '--output-watch-events', '-o', 'json']);
    const table = kubectlBackground(sim, ['-n', ns, 'get', 'configmaps', '-w', '--output-watch-events']);
    try {
      await json.waitFor((o) => o.includes('"seed"'));
      await table.waitFor((o) => /ADDED\s+seed/.test(o));
      await kubectlOk(sim, ['-n', ns, 'patch', 'configmap', 'seed', '--type=merge', '-p', '{"data":{"k":"v2"}}']);
      await kubectlOk(sim, ['-n', ns, 'create', 'configmap', 'second']);
      await kubectlOk(sim, ['-n', ns, 'delete', 'configmap', 'seed']);
      const out = await json.waitFor((o) => /"type": ?"DELETED"/.test(o));
      const events = parseWatchJson(out);
      // The watch starts with the namespace's CA ConfigMap (the controller manager's), as anywhere.
      assert.deepEqual(events.map((e) => `${e.type} ${e.object['metadata'].name}`), ['ADDED kube-root-ca.crt', 'ADDED seed', 'MODIFIED seed', 'ADDED second', 'DELETED seed']);
      const rvs = events.map((e) => Number(e.object['metadata'].resourceVersion));
      for (let i = 1; i < rvs.length; i++) assert.ok(rvs[i]! > rvs[i - 1]!, `resourceVersions rise: ${rvs.join(', ')}`);
      const printed = await table.waitFor((o) => /DELETED\s+seed/.test(o));
      assert.match(printed, /^EVENT\s+NAME\s+DATA\s+AGE$/m);
      assert.match(printed, /^MODIFIED\s+seed\s+1\s+/m);
      assert.match(printed, /^ADDED\s+second\s+0\s+/m);
    } finally {
      await json.stop();
      await table.stop();
    }
  });

  it('keeps an object with a finalizer until the finalizer is removed', async () => {
    const ns = await namespace('conf-finalizer');
    await kubectlOk(sim, ['apply', '-f', '-'], `apiVersion: v1
kind: ConfigMap
metadata:
  name: held
  namespace: ${ns}
  finalizers: [example.com/hold]
data: {k: v}
`);
    assert.match(await kubectlOk(sim, ['-n', ns, 'delete', 'configmap', 'held', '--wait=false']), /configmap "held" deleted/);
    const held = await getJson(['-n', ns, 'get', 'configmap', 'held']);
    assert.ok(held['metadata'].deletionTimestamp, 'deletionTimestamp is set');
    assert.deepEqual(held['metadata'].finalizers, ['example.com/hold']);
    await kubectlOk(sim, ['-n', ns, 'patch', 'configmap', 'held', '--type=json', '-p', '[{"op":"remove","path":"/metadata/finalizers"}]']);
    const gone = await kubectl(sim, ['-n', ns, 'get', 'configmap', 'held']);
    assert.notEqual(gone.code, 0);
    assert.match(gone.stderr, /NotFound|not found/);
  });

  it('serves a CRD: apply it, then create, get, watch and delete custom resources', async () => {
    const ns = await namespace('conf-crd');
    await kubectlOk(sim, ['apply', '-f', '-'], `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {plural: widgets, singular: widget, kind: Widget, shortNames: [wd]}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
    additionalPrinterColumns:
    - {name: Size, type: integer, jsonPath: .spec.size}
    - {name: Age, type: date, jsonPath: .metadata.creationTimestamp}
`);
    const resources = await kubectlOk(sim, ['api-resources', '--api-group=example.com']);
    assert.match(resources, /^widgets\s+wd\s+example.com\/v1\s+true\s+Widget$/m);

    const widget = (size: number) => `apiVersion: example.com/v1
kind: Widget
metadata: {name: w1, namespace: ${ns}}
spec: {size: ${size}}
`;
    assert.match(await kubectlOk(sim, ['apply', '-f', '-'], widget(1)), /widget.example.com\/w1 created/);
    const watch = kubectlBackground(sim, ['-n', ns, 'get', 'widgets', '-w', '--output-watch-events', '-o', 'json']);
    try {
      await watch.waitFor((o) => o.includes('"w1"'));
      assert.match(await kubectlOk(sim, ['apply', '-f', '-'], widget(2)), /widget.example.com\/w1 configured/);
      assert.equal((await getJson(['-n', ns, 'get', 'wd', 'w1']))['spec'].size, 2);
      const table = await kubectlOk(sim, ['-n', ns, 'get', 'widgets']);
      assert.match(table, /^NAME\s+SIZE\s+AGE$/m);
      assert.match(table, /^w1\s+2\s+\d+s$/m);
      await kubectlOk(sim, ['-n', ns, 'delete', 'widget', 'w1']);
      const events = parseWatchJson(await watch.waitFor((o) => /"type": ?"DELETED"/.test(o)));
      assert.deepEqual(events.map((e) => e.type), ['ADDED', 'MODIFIED', 'DELETED']);
      assert.equal(events[1]!.object['spec'].size, 2);
    } finally {
      await watch.stop();
    }
  });

  it('a watch from a compacted resourceVersion gets the 410 ERROR event; an Exact list gets HTTP 410', async () => {
    const ns = await namespace('conf-expired');
    const created = await getJson(['-n', ns, 'create', 'configmap', 'old']);
    const oldRv = created['metadata'].resourceVersion;
    await kubectlOk(sim, ['-n', ns, 'create', 'configmap', 'newer']);
    const compacted = await rawRequest(sim, 'POST', '/controller-lab/admin/compact', { body: '{}', headers: { 'Content-Type': 'application/json' } });
    assert.equal(compacted.status, 200, compacted.body);

    const watch = await kubectl(sim, ['get', '--raw', `/api/v1/namespaces/${ns}/configmaps?watch=1&resourceVersion=${oldRv}`]);
    assert.equal(watch.code, 0, watch.stderr);
    const event = JSON.parse(watch.stdout.trim());
    assert.equal(event.type, 'ERROR');
    assert.equal(event.object.kind, 'Status');
    assert.equal(event.object.code, 410);
    assert.equal(event.object.reason, 'Expired');
    assert.match(event.object.message, /^too old resource version: \d+ \(\d+\)$/);

    const list = await kubectl(sim, ['get', '--raw', `/api/v1/namespaces/${ns}/configmaps?resourceVersion=${oldRv}&resourceVersionMatch=Exact`]);
    assert.notEqual(list.code, 0);
    assert.match(list.stderr, /410|Expired|Gone|too old/i);
  });

  it('replaces (PUT), lists in pages (--chunk-size) and deletes --all', async () => {
    const ns = await namespace('conf-pages');
    await Promise.all([1, 2, 3, 4, 5].map((i) => kubectlOk(sim, ['-n', ns, 'create', 'configmap', `c${i}`, `--from-literal=a=${i}`])));
    // The compaction test beside this one (tests here run at once) may expire the list's continue
    // token between two pages, as etcd's compaction would: kubectl says 410 Expired; list again.
    let paged = await kubectl(sim, ['-n', ns, 'get', 'configmaps', '--chunk-size=2', '-o', 'name', '-v=6']);
    if (paged.code !== 0 && /410 Gone/.test(paged.stderr)) paged = await kubectl(sim, ['-n', ns, 'get', 'configmaps', '--chunk-size=2', '-o', 'name', '-v=6']);
    assert.equal(paged.code, 0, paged.stderr);
    assert.deepEqual(paged.stdout.trim().split('\n'), ['configmap/c1', 'configmap/c2', 'configmap/c3', 'configmap/c4', 'configmap/c5', 'configmap/kube-root-ca.crt']);
    assert.equal((paged.stderr.match(/configmaps\?(continue=[^&\s]+&)?limit=2 200/g) ?? []).length, 3, 'three pages of two');

    const yaml = (await kubectlOk(sim, ['-n', ns, 'get', 'configmap', 'c1', '-o', 'yaml'])).replace('a: "1"', 'a: "9"');
    assert.match(await kubectlOk(sim, ['replace', '-f', '-'], yaml), /configmap\/c1 replaced/);
    assert.equal(await kubectlOk(sim, ['-n', ns, 'get', 'configmap', 'c1', '-o', 'jsonpath={.data.a}']), '9');
    // The manifest still carries the old resourceVersion: a second replace is a conflict.
    const stale = await kubectl(sim, ['replace', '-f', '-'], { input: yaml });
    assert.notEqual(stale.code, 0);
    assert.match(stale.stderr, /Conflict|modified/);

    await kubectlOk(sim, ['-n', ns, 'delete', 'configmaps', '--all']);
    // All of the test's are gone (the controller manager puts its CA ConfigMap back, as in any cluster).
    const left = (await kubectlOk(sim, ['-n', ns, 'get', 'configmaps', '-o', 'name'])).trim().split('\n').filter((n) => n !== '');
    assert.deepEqual(left.filter((n) => n !== 'configmap/kube-root-ca.crt'), []);
  });

  it('dry-run=server changes nothing; server-side apply creates and merges', async () => {
    const ns = await namespace('conf-dryrun');
    await kubectlOk(sim, ['-n', ns, 'create', 'configmap', 'ghost', '--dry-run=server']);
    assert.notEqual((await kubectl(sim, ['-n', ns, 'get', 'configmap', 'ghost'])).code, 0);
    const cm = (v: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ssa, namespace: ${ns}}\ndata: {k: ${v}}\n`;
    await kubectlOk(sim, ['apply', '--server-side', '-f', '-'], cm('one'));
    await kubectlOk(sim, ['apply', '--server-side', '-f', '-'], cm('two'));
    assert.deepEqual((await getJson(['-n', ns, 'get', 'configmap', 'ssa']))['data'], { k: 'two' });
  });
});
