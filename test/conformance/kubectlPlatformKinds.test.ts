// Real kubectl against `controller-lab sim` for the cluster plumbing kinds: EndpointSlice,
// ControllerRevision, ResourceQuota, LimitRange, PodTemplate, PriorityClass, StorageClass,
// IngressClass and webhook configurations (whose webhooks match nothing these tests write). Each test has
// its own namespace and cluster-scoped names, so they run concurrently.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { kubectl, kubectlOk, simForFile, type Json } from './simProcess.ts';

const sim = simForFile();

async function getJson(args: string[]): Promise<Json> {
  return JSON.parse(await kubectlOk(sim, [...args, '-o', 'json']));
}

/** One of each plumbing kind, as one multi-document manifest. */
function platformManifest(ns: string): string {
  return `apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: {name: web-abc12, namespace: ${ns}, labels: {kubernetes.io/service-name: web}}
addressType: IPv4
ports: [{port: 8080}, {name: metrics, port: 9090}]
endpoints:
- addresses: [10.0.0.1]
- addresses: [10.0.0.2, 10.0.0.3]
- addresses: [10.0.0.4]
---
apiVersion: apps/v1
kind: ControllerRevision
metadata:
  name: web-5d8f
  namespace: ${ns}
  ownerReferences: [{apiVersion: apps/v1, kind: StatefulSet, name: web, uid: 6a1f5e2c-0000-4000-8000-000000000001, controller: true}]
revision: 3
data: {spec: {template: {spec: {containers: [{name: web, image: nginx:1.25}]}}}}
---
apiVersion: v1
kind: ResourceQuota
metadata: {name: compute, namespace: ${ns}}
spec: {hard: {requests.cpu: "2", limits.memory: 4Gi, pods: "10"}}
---
apiVersion: v1
kind: LimitRange
metadata: {name: defaults, namespace: ${ns}}
spec:
  limits: [{type: Container, max: {cpu: "1"}, min: {memory: 64Mi}}]
---
apiVersion: v1
kind: PodTemplate
metadata: {name: worker, namespace: ${ns}}
template:
  metadata: {labels: {tier: batch, app: worker}}
  spec: {containers: [{name: main, image: busybox:1.36}, {name: sidecar, image: envoy:v1}]}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: ${ns}-critical}
value: 100000
globalDefault: false
description: for the controllers
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: ${ns}-fast
  annotations: {storageclass.kubernetes.io/is-default-class: "true"}
provisioner: ebs.csi.aws.com
allowVolumeExpansion: true
---
apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata: {name: ${ns}-nginx}
spec:
  controller: k8s.io/ingress-nginx
  parameters: {apiGroup: k8s.example.com, kind: IngressParameters, name: external-lb}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: ${ns}-policy}
webhooks:
- name: check.example.com
  clientConfig: {service: {name: policy, namespace: ${ns}}}
  rules: [{apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}]
  sideEffects: None
  admissionReviewVersions: [v1]
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: ${ns}-inject}
webhooks:
- name: inject.example.com
  clientConfig: {url: "https://inject.example.com/mutate"}
  sideEffects: NoneOnDryRun
  admissionReviewVersions: [v1]
- name: label.example.com
  clientConfig: {url: "https://inject.example.com/label"}
  sideEffects: None
  admissionReviewVersions: [v1]
`;
}

describe('kubectl and the cluster plumbing kinds', { concurrency: true }, () => {
  it('applies a manifest with one of each kind, re-applies it unchanged, and prints each with the v1.28 columns', async () => {
    const ns = 'conf-platform';
    await kubectlOk(sim, ['create', 'namespace', ns]);
    const applied = await kubectlOk(sim, ['apply', '-f', '-'], platformManifest(ns));
    for (const line of [
      'endpointslice.discovery.k8s.io/web-abc12 created',
      'controllerrevision.apps/web-5d8f created',
      'resourcequota/compute created',
      'limitrange/defaults created',
      'podtemplate/worker created',
      `priorityclass.scheduling.k8s.io/${ns}-critical created`,
      `storageclass.storage.k8s.io/${ns}-fast created`,
      `ingressclass.networking.k8s.io/${ns}-nginx created`,
      `validatingwebhookconfiguration.admissionregistration.k8s.io/${ns}-policy created`,
      `mutatingwebhookconfiguration.admissionregistration.k8s.io/${ns}-inject created`,
    ]) assert.ok(applied.includes(line), `${line} in:\n${applied}`);
    const again = await kubectlOk(sim, ['apply', '-f', '-'], platformManifest(ns));
    assert.doesNotMatch(again, /created/);
    // What kube-apiserver v1.28.4 answers to the same two applies: defaults inside atomic lists (a
    // slice's ports, a LimitRange's items, a webhook's rules) and a zero value Go leaves out
    // (`globalDefault: false`) make the three-way patch non-empty, so kubectl says `configured`.
    const configured = ['endpointslice.discovery.k8s.io/web-abc12', 'limitrange/defaults', `priorityclass.scheduling.k8s.io/${ns}-critical`, `validatingwebhookconfiguration.admissionregistration.k8s.io/${ns}-policy`];
    const unchanged = ['controllerrevision.apps/web-5d8f', 'resourcequota/compute', 'podtemplate/worker', `storageclass.storage.k8s.io/${ns}-fast`, `ingressclass.networking.k8s.io/${ns}-nginx`, `mutatingwebhookconfiguration.admissionregistration.k8s.io/${ns}-inject`];
    for (const kind of configured) assert.ok(again.includes(`${kind} configured`), `${kind} configured in:\n${again}`);
    for (const kind of unchanged) assert.ok(again.includes(`${kind} unchanged`), `${kind} unchanged in:\n${again}`);

    // With -A, cluster-scoped kinds get an empty NAMESPACE cell, as from a real server.
    const all = await kubectlOk(sim, ['get', 'endpointslices,storageclass,priorityclass,ingressclass,quota', '-A']);
    assert.match(all, /^NAMESPACE\s+NAME\s+ADDRESSTYPE\s+PORTS\s+ENDPOINTS\s+AGE\n/m);
    assert.match(all, new RegExp(`^${ns}\\s+endpointslice.discovery.k8s.io/web-abc12\\s+IPv4\\s+8080,9090\\s+10\\.0\\.0\\.1,10\\.0\\.0\\.2,10\\.0\\.0\\.3 \\+ 1 more\\.\\.\\.\\s+\\d+s$`, 'm'));
    assert.match(all, /^NAMESPACE\s+NAME\s+PROVISIONER\s+RECLAIMPOLICY\s+VOLUMEBINDINGMODE\s+ALLOWVOLUMEEXPANSION\s+AGE\n/m);
    assert.match(all, new RegExp(`^ +storageclass.storage.k8s.io/${ns}-fast \\(default\\)\\s+ebs\\.csi\\.aws\\.com\\s+Delete\\s+Immediate\\s+true\\s+\\d+s$`, 'm'));
    assert.match(all, /^NAMESPACE\s+NAME\s+VALUE\s+GLOBAL-DEFAULT\s+AGE\n/m);
    assert.match(all, new RegExp(`^ +priorityclass.scheduling.k8s.io/${ns}-critical\\s+100000\\s+false\\s+\\d+s$`, 'm'));
    assert.match(all, /^NAMESPACE\s+NAME\s+CONTROLLER\s+PARAMETERS\s+AGE\n/m);
    assert.match(all, new RegExp(`^ +ingressclass.networking.k8s.io/${ns}-nginx\\s+k8s.io/ingress-nginx\\s+IngressParameters\\.k8s\\.example\\.com/external-lb\\s+\\d+s$`, 'm'));
    assert.match(all, /^NAMESPACE\s+NAME\s+AGE\s+REQUEST\s+LIMIT\n/m);
    // No quota controller runs: the usage columns stay empty until something writes the status.
    assert.match(all, new RegExp(`^${ns}\\s+resourcequota/compute\\s+\\d+s\\s*$`, 'm'));

    const revisions = await kubectlOk(sim, ['-n', ns, 'get', 'controllerrevisions']);
    assert.match(revisions, /^NAME\s+CONTROLLER\s+REVISION\s+AGE\nweb-5d8f\s+statefulset\.apps\/web\s+3\s+\d+s\n$/);
    assert.match(await kubectlOk(sim, ['-n', ns, 'get', 'limits']), /^NAME\s+CREATED AT\ndefaults\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n$/);
    assert.match(await kubectlOk(sim, ['-n', ns, 'get', 'podtemplates']), /^NAME\s+CONTAINERS\s+IMAGES\s+POD LABELS\nworker\s+main,sidecar\s+busybox:1\.36,envoy:v1\s+app=worker,tier=batch\n$/);
    const webhooks = await kubectlOk(sim, ['get', 'validatingwebhookconfigurations,mutatingwebhookconfigurations']);
    assert.match(webhooks, /^NAME\s+WEBHOOKS\s+AGE\n/m);
    assert.match(webhooks, new RegExp(`^validatingwebhookconfiguration.admissionregistration.k8s.io/${ns}-policy\\s+1\\s+\\d+s$`, 'm'));
    assert.match(webhooks, new RegExp(`^mutatingwebhookconfiguration.admissionregistration.k8s.io/${ns}-inject\\s+2\\s+\\d+s$`, 'm'));
  });

  it('the server fills in the defaults a v1.28 server sets, and only those', async () => {
    const ns = 'conf-defaults';
    await kubectlOk(sim, ['create', 'namespace', ns]);
    await kubectlOk(sim, ['apply', '-f', '-'], platformManifest(ns));
    const sc = await getJson(['get', 'storageclass', `${ns}-fast`]);
    assert.deepEqual([sc['reclaimPolicy'], sc['volumeBindingMode']], ['Delete', 'Immediate']);
    assert.equal((await getJson(['get', 'priorityclass', `${ns}-critical`]))['preemptionPolicy'], 'PreemptLowerPriority');
    const validating = (await getJson(['get', 'validatingwebhookconfiguration', `${ns}-policy`]))['webhooks'][0];
    assert.deepEqual(
      [validating.failurePolicy, validating.matchPolicy, validating.namespaceSelector, validating.objectSelector, validating.timeoutSeconds, validating.rules[0].scope, validating.clientConfig.service.port],
      ['Fail', 'Equivalent', {}, {}, 10, '*', 443],
    );
    assert.equal(validating.reinvocationPolicy, undefined, 'only mutating webhooks are reinvoked');
    const mutating = (await getJson(['get', 'mutatingwebhookconfiguration', `${ns}-inject`]))['webhooks'];
    assert.deepEqual(mutating.map((w: Json) => [w['reinvocationPolicy'], w['sideEffects'], w['timeoutSeconds']]), [['Never', 'NoneOnDryRun', 10], ['Never', 'None', 10]]);
    const slice = await getJson(['-n', ns, 'get', 'endpointslice', 'web-abc12']);
    assert.deepEqual(slice['ports'], [{ name: '', port: 8080, protocol: 'TCP' }, { name: 'metrics', port: 9090, protocol: 'TCP' }]);
    const limits = (await getJson(['-n', ns, 'get', 'limitrange', 'defaults']))['spec'].limits[0];
    assert.deepEqual([limits.default, limits.defaultRequest], [{ cpu: '1' }, { cpu: '1', memory: '64Mi' }]);
    const template = (await getJson(['-n', ns, 'get', 'podtemplate', 'worker']))['template'].spec;
    assert.deepEqual([template.restartPolicy, template.containers[0].imagePullPolicy], ['Always', 'IfNotPresent']);
    const quota = await getJson(['-n', ns, 'get', 'quota', 'compute']);
    assert.deepEqual(quota['status'], {}, 'status is the quota controller\'s to write: empty, as the API server writes an unset status');
  });

  it('kubectl create quota / priorityclass work (kubectl ≥ 1.32 may send them as protobuf)', async () => {
    const ns = 'conf-create';
    await kubectlOk(sim, ['create', 'namespace', ns]);
    assert.match(await kubectlOk(sim, ['-n', ns, 'create', 'quota', 'q', '--hard=pods=2']), /resourcequota\/q created/);
    assert.deepEqual((await getJson(['-n', ns, 'get', 'quota', 'q']))['spec'], { hard: { pods: '2' } });
    const created = await kubectl(sim, ['create', 'priorityclass', 'high', '--value=1000', '--description=urgent']);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /priorityclass.scheduling.k8s.io\/high created/);
    const pc = await getJson(['get', 'pc', 'high']);
    assert.deepEqual([pc['value'], pc['description'], pc['preemptionPolicy']], [1000, 'urgent', 'PreemptLowerPriority']);
    assert.match(await kubectlOk(sim, ['get', 'pc', 'high']), /^NAME\s+VALUE\s+GLOBAL-DEFAULT\s+AGE\nhigh\s+1000\s+false\s+\d+s\n$/);
    const twice = await kubectl(sim, ['create', 'priorityclass', 'high', '--value=1000']);
    assert.notEqual(twice.code, 0);
    assert.match(twice.stderr, /AlreadyExists|already exists/);
  });

  it('kubectl api-resources lists the new kinds with their short names, scope and group', async () => {
    const resources = await kubectlOk(sim, ['api-resources']);
    for (const line of [
      /^endpointslices\s+discovery.k8s.io\/v1\s+true\s+EndpointSlice$/m,
      /^controllerrevisions\s+apps\/v1\s+true\s+ControllerRevision$/m,
      /^resourcequotas\s+quota\s+v1\s+true\s+ResourceQuota$/m,
      /^limitranges\s+limits\s+v1\s+true\s+LimitRange$/m,
      /^podtemplates\s+v1\s+true\s+PodTemplate$/m,
      /^priorityclasses\s+pc\s+scheduling.k8s.io\/v1\s+false\s+PriorityClass$/m,
      /^storageclasses\s+sc\s+storage.k8s.io\/v1\s+false\s+StorageClass$/m,
      /^ingressclasses\s+networking.k8s.io\/v1\s+false\s+IngressClass$/m,
      /^validatingwebhookconfigurations\s+admissionregistration.k8s.io\/v1\s+false\s+ValidatingWebhookConfiguration$/m,
      /^mutatingwebhookconfigurations\s+admissionregistration.k8s.io\/v1\s+false\s+MutatingWebhookConfiguration$/m,
    ]) assert.match(resources, line);
    const extensions = await kubectlOk(sim, ['api-resources', '--categories=api-extensions', '-o', 'name']);
    assert.ok(extensions.includes('validatingwebhookconfigurations.admissionregistration.k8s.io'), extensions);
  });
});
