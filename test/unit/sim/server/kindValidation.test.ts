import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, type Answer } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

// Per-kind validation over HTTP, as kube-apiserver answers it: a 422 Invalid whose message and
// causes name the field (`spec.template.spec.containers: Required value`), and nothing stored.

const suite = suiteServer();
const DEPLOYS = '/apis/apps/v1/namespaces/default/deployments';
const PODS = '/api/v1/namespaces/default/pods';
const SERVICES = '/api/v1/namespaces/default/services';

const containers = [{ name: 'web', image: 'nginx:1.25' }];
function deployment(name: string, spec: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
    spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers } }, ...spec },
  };
}

function invalid(r: Answer, message: string, causes: { reason: string; field: string }[]): void {
  assert.equal(r.status, 422, r.body);
  const status = r.json();
  assert.equal(status.reason, 'Invalid');
  assert.equal(status.message, message);
  assert.deepEqual(status.details.causes.map((c: { reason: string; field: string }) => ({ reason: c.reason, field: c.field })), causes);
}

describe('required fields of workloads and pods', () => {
  it('a Deployment without containers is a 422 naming spec.template.spec.containers, and is not stored', async () => {
    const body = deployment('empty');
    ((body.spec as { template: { spec: { containers: unknown } } }).template.spec).containers = [];
    const r = await call(suite.server, 'POST', DEPLOYS, { body });
    invalid(r, 'Deployment.apps "empty" is invalid: spec.template.spec.containers: Required value', [{ reason: 'FieldValueRequired', field: 'spec.template.spec.containers' }]);
    assert.equal((await call(suite.server, 'GET', `${DEPLOYS}/empty`)).status, 404);
  });

  it('a dry-run create of an invalid object is refused the same way', async () => {
    const body = deployment('dry');
    delete (body.spec as { template: { spec: Record<string, unknown> } }).template.spec.containers;
    const r = await call(suite.server, 'POST', `${DEPLOYS}?dryRun=All`, { body });
    assert.equal(r.status, 422);
    assert.equal(r.json().details.causes[0].field, 'spec.template.spec.containers');
  });

  it('a selector that does not match the template\'s labels, and a missing selector', async () => {
    const mismatch = await call(suite.server, 'POST', DEPLOYS, { body: deployment('mismatch', { selector: { matchLabels: { app: 'other' } } }) });
    invalid(mismatch, 'Deployment.apps "mismatch" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"mismatch"}: `selector` does not match template `labels`', [
      { reason: 'FieldValueInvalid', field: 'spec.template.metadata.labels' },
    ]);
    const body = deployment('noselector');
    delete (body.spec as Record<string, unknown>).selector;
    const missing = await call(suite.server, 'POST', DEPLOYS, { body });
    assert.deepEqual(missing.json().details.causes.map((c: { field: string }) => c.field), ['spec.selector', 'spec.template.metadata.labels']);
  });

  it('containers need a name and an image; several causes are listed in brackets', async () => {
    const r = await call(suite.server, 'POST', PODS, { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'Web_1' }] } } });
    invalid(r, 'Pod "p" is invalid: [spec.containers[0].name: Invalid value: "Web_1": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\'), spec.containers[0].image: Required value]', [
      { reason: 'FieldValueInvalid', field: 'spec.containers[0].name' },
      { reason: 'FieldValueRequired', field: 'spec.containers[0].image' },
    ]);
  });

  it('a Job must choose a restartPolicy that ends; a valid Job gets the selector and labels the API server generates', async () => {
    const jobs = '/apis/batch/v1/namespaces/default/jobs';
    const template = (restartPolicy?: string) => ({ spec: { containers, ...(restartPolicy ? { restartPolicy } : {}) } });
    const refused = await call(suite.server, 'POST', jobs, { body: { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'forever' }, spec: { template: template() } } });
    invalid(refused, 'Job.batch "forever" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"', [
      { reason: 'FieldValueRequired', field: 'spec.template.spec.restartPolicy' },
    ]);
    const created = await call(suite.server, 'POST', jobs, { body: { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'once' }, spec: { template: template('Never') } } });
    assert.equal(created.status, 201, created.body);
    const job = created.json();
    assert.deepEqual(job.spec.selector, { matchLabels: { 'batch.kubernetes.io/controller-uid': job.metadata.uid } });
    assert.equal(job.spec.template.metadata.labels['batch.kubernetes.io/job-name'], 'once');
    assert.equal(job.spec.template.metadata.labels['controller-uid'], job.metadata.uid);
  });

  it('a Service needs ports in range, named when there are several', async () => {
    const none = await call(suite.server, 'POST', SERVICES, { body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'none' }, spec: { selector: { app: 'x' } } } });
    invalid(none, 'Service "none" is invalid: spec.ports: Required value', [{ reason: 'FieldValueRequired', field: 'spec.ports' }]);
    const ports = await call(suite.server, 'POST', SERVICES, { body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'ports' }, spec: { ports: [{ port: 80 }, { name: 'big', port: 70000 }] } } });
    // targetPort is defaulted to the port first, so it is out of range too (as kube-apiserver reports it).
    invalid(ports, 'Service "ports" is invalid: [spec.ports[0].name: Required value, spec.ports[1].port: Invalid value: 70000: must be between 1 and 65535, inclusive, spec.ports[1].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive]', [
      { reason: 'FieldValueRequired', field: 'spec.ports[0].name' },
      { reason: 'FieldValueInvalid', field: 'spec.ports[1].port' },
      { reason: 'FieldValueInvalid', field: 'spec.ports[1].targetPort' },
    ]);
    const headless = await call(suite.server, 'POST', SERVICES, { body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'headless' }, spec: { clusterIP: 'None', selector: { app: 'x' } } } });
    assert.equal(headless.status, 201, 'a headless Service needs no ports');
  });

  it('a Service from a Go client (targetPort 0, empty strings for unset fields) gets the API server\'s defaults', async () => {
    const r = await call(suite.server, 'POST', SERVICES, { body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'typed' }, spec: { type: '', ports: [{ port: 8080, targetPort: 0, protocol: '' }] } } });
    assert.equal(r.status, 201, r.body);
    assert.deepEqual([r.json().spec.type, r.json().spec.ports[0].targetPort, r.json().spec.ports[0].protocol], ['ClusterIP', 8080, 'TCP']);
  });

  it('a new Pod gets what defaulting and admission add: service account, priority, tolerations, service links', async () => {
    const r = await call(suite.server, 'POST', PODS, { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'admitted' }, spec: { containers: [{ name: 'web', image: 'nginx:1.25', resources: { limits: { cpu: '1' } } }] } } });
    assert.equal(r.status, 201, r.body);
    const spec = r.json().spec;
    assert.deepEqual([spec.serviceAccountName, spec.serviceAccount, spec.priority, spec.preemptionPolicy, spec.enableServiceLinks], ['default', 'default', 0, 'PreemptLowerPriority', true]);
    assert.deepEqual(spec.tolerations, [
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
    assert.deepEqual(spec.containers[0].resources.requests, { cpu: '1' }, 'requests default to limits');
  });

  it('a Service name must start with a letter (DNS-1035), unlike a ConfigMap\'s', async () => {
    const r = await call(suite.server, 'POST', SERVICES, { body: { apiVersion: 'v1', kind: 'Service', metadata: { name: '1st' }, spec: { ports: [{ port: 80 }] } } });
    assert.equal(r.status, 422);
    assert.match(r.json().message, /metadata\.name: Invalid value: "1st": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character/);
    assert.equal((await call(suite.server, 'POST', '/api/v1/namespaces/default/configmaps', { body: { metadata: { name: '1st' } } })).status, 201);
  });
});

describe('updates', () => {
  it('an update that removes the containers is refused, with dryRun too, and the stored object is unchanged', async () => {
    const created = (await call(suite.server, 'POST', DEPLOYS, { body: deployment('upd') })).json();
    const broken = structuredClone(created);
    broken.spec.template.spec.containers = null;
    for (const query of ['', '?dryRun=All']) {
      const r = await call(suite.server, 'PUT', `${DEPLOYS}/upd${query}`, { body: broken });
      assert.equal(r.status, 422, query);
      assert.equal(r.json().details.causes[0].field, 'spec.template.spec.containers');
    }
    const stored = (await call(suite.server, 'GET', `${DEPLOYS}/upd`)).json();
    assert.equal(stored.spec.template.spec.containers.length, 1);
    assert.equal(stored.metadata.resourceVersion, created.metadata.resourceVersion);
    // A /status write carrying the broken spec only writes status.
    const status = await call(suite.server, 'PUT', `${DEPLOYS}/upd/status`, { body: { ...broken, status: { replicas: 1, observedGeneration: 1 } } });
    assert.equal(status.status, 200, status.body);
    assert.equal(status.json().spec.template.spec.containers.length, 1);
  });

  it('a Deployment\'s selector is immutable', async () => {
    await call(suite.server, 'POST', DEPLOYS, { body: deployment('sel') });
    const r = await call(suite.server, 'PATCH', `${DEPLOYS}/sel`, {
      body: { spec: { selector: { matchLabels: { app: 'sel', tier: 'x' } }, template: { metadata: { labels: { app: 'sel', tier: 'x' } } } } },
      contentType: 'application/merge-patch+json',
    });
    invalid(r, 'Deployment.apps "sel" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"sel", "tier":"x"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable', [
      { reason: 'FieldValueInvalid', field: 'spec.selector' },
    ]);
  });

  it('a Job\'s template and a Service\'s cluster IP are immutable; a PVC\'s spec too', async () => {
    const jobs = '/apis/batch/v1/namespaces/default/jobs';
    await call(suite.server, 'POST', jobs, { body: { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'frozen' }, spec: { template: { spec: { containers, restartPolicy: 'Never' } } } } });
    const job = await call(suite.server, 'PATCH', `${jobs}/frozen`, { body: { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.26' }] } } } }, contentType: 'application/strategic-merge-patch+json' });
    assert.equal(job.status, 422);
    assert.deepEqual(job.json().details.causes.map((c: { field: string; message: string }) => [c.field, /field is immutable$/.test(c.message)]), [['spec.template', true]]);

    const svc = (await call(suite.server, 'POST', SERVICES, { body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'ip' }, spec: { ports: [{ port: 80 }] } } })).json();
    const moved = await call(suite.server, 'PATCH', `${SERVICES}/ip`, { body: { spec: { clusterIP: '10.96.200.200', clusterIPs: ['10.96.200.200'] } }, contentType: 'application/merge-patch+json' });
    invalid(moved, 'Service "ip" is invalid: spec.clusterIPs[0]: Invalid value: []string{"10.96.200.200"}: may not change once set', [{ reason: 'FieldValueInvalid', field: 'spec.clusterIPs[0]' }]);
    const kept = await call(suite.server, 'PUT', `${SERVICES}/ip`, { body: { ...svc, spec: { ports: [{ port: 81 }] } } });
    assert.equal(kept.json().spec.clusterIP, svc.spec.clusterIP, 'a PUT without clusterIP keeps the allocated one');

    const pvcs = '/api/v1/namespaces/default/persistentvolumeclaims';
    const claim = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } };
    assert.equal((await call(suite.server, 'POST', pvcs, { body: claim })).status, 201);
    const changed = await call(suite.server, 'PATCH', `${pvcs}/data`, { body: { spec: { accessModes: ['ReadWriteMany'] } }, contentType: 'application/merge-patch+json' });
    assert.equal(changed.status, 422);
    assert.match(changed.json().message, /^PersistentVolumeClaim "data" is invalid: spec: Forbidden: spec is immutable after creation except resources\.requests for bound claims/);
  });

  it('a Pod\'s spec may change only in its images (and the like)', async () => {
    await call(suite.server, 'POST', PODS, { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'fixed' }, spec: { containers } } });
    const image = await call(suite.server, 'PATCH', `${PODS}/fixed`, { body: { spec: { containers: [{ name: 'web', image: 'nginx:1.26' }] } }, contentType: 'application/strategic-merge-patch+json' });
    assert.equal(image.status, 200, image.body);
    const policy = await call(suite.server, 'PATCH', `${PODS}/fixed`, { body: { spec: { restartPolicy: 'Never' } }, contentType: 'application/merge-patch+json' });
    assert.equal(policy.status, 422);
    assert.match(policy.json().message, /^Pod "fixed" is invalid: spec: Forbidden: pod updates may not change fields other than `spec\.containers\[\*\]\.image`,`spec\.initContainers\[\*\]\.image`,`spec\.activeDeadlineSeconds`/);
  });

  it('a RoleBinding\'s roleRef cannot change', async () => {
    const bindings = '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings';
    const body = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'rb' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'a' }, subjects: [{ kind: 'User', name: 'u' }] };
    const created = await call(suite.server, 'POST', bindings, { body });
    assert.equal(created.status, 201, created.body);
    assert.equal(created.json().subjects[0].apiGroup, 'rbac.authorization.k8s.io', 'a User subject\'s group is defaulted');
    const r = await call(suite.server, 'PATCH', `${bindings}/rb`, { body: { roleRef: { name: 'b' } }, contentType: 'application/merge-patch+json' });
    invalid(r, 'RoleBinding.rbac.authorization.k8s.io "rb" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"Role", Name:"b"}: cannot change roleRef', [{ reason: 'FieldValueInvalid', field: 'roleRef' }]);
  });
});

describe('kinds with rules of their own', () => {
  it('a Namespace keeps its kubernetes.io/metadata.name label and its finalizers through updates', async () => {
    await call(suite.server, 'POST', '/api/v1/namespaces', { body: { metadata: { name: 'kept' } } });
    const r = await call(suite.server, 'PATCH', '/api/v1/namespaces/kept', {
      body: { metadata: { labels: { 'kubernetes.io/metadata.name': null, team: 'a' } }, spec: { finalizers: [] } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json().metadata.labels, { 'kubernetes.io/metadata.name': 'kept', team: 'a' });
    assert.deepEqual(r.json().spec.finalizers, ['kubernetes'], 'only /finalize changes them');
  });

  it('a Namespace\'s /finalize takes spec.finalizers and the metadata it brings, and keeps the name label', async () => {
    await call(suite.server, 'POST', '/api/v1/namespaces', { body: { metadata: { name: 'finalized' } } });
    const ns = (await call(suite.server, 'GET', '/api/v1/namespaces/finalized')).json();
    const body = { ...ns, metadata: { ...ns.metadata, labels: { team: 'a' }, annotations: { why: 'e2e' } }, spec: { finalizers: ['kubernetes', 'e2e.example.com/fake'] } };
    const r = await call(suite.server, 'PUT', '/api/v1/namespaces/finalized/finalize', { body });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json().spec.finalizers, ['kubernetes', 'e2e.example.com/fake']);
    assert.deepEqual(r.json().metadata.labels, { team: 'a', 'kubernetes.io/metadata.name': 'finalized' });
    assert.equal(r.json().metadata.annotations?.why, 'e2e');
  });

  it('an Event must be in its involved object\'s namespace; a new-style Event names its reporter', async () => {
    const events = '/api/v1/namespaces/default/events';
    const elsewhere = await call(suite.server, 'POST', events, { body: { metadata: { name: 'e1' }, involvedObject: { kind: 'Pod', namespace: 'other', name: 'p' }, reason: 'Started' } });
    invalid(elsewhere, 'Event "e1" is invalid: involvedObject.namespace: Invalid value: "other": does not match event.namespace', [{ reason: 'FieldValueInvalid', field: 'involvedObject.namespace' }]);
    const modern = await call(suite.server, 'POST', events, { body: { metadata: { name: 'e2' }, involvedObject: { kind: 'Pod', namespace: 'default', name: 'p' }, eventTime: '2026-01-01T00:00:00.000000Z', reason: 'Started' } });
    assert.deepEqual(modern.json().details.causes.map((c: { field: string }) => c.field), ['reportingComponent', 'reportingInstance', 'action']);
    const ok = await call(suite.server, 'POST', events, { body: { metadata: { name: 'e3' }, involvedObject: { kind: 'Pod', namespace: 'default', name: 'p' }, reason: 'Started', message: 'started' } });
    assert.equal(ok.status, 201, ok.body);
  });
});

describe('odd requests', () => {
  it('limit=-5 lists everything, as kube-apiserver pages only for a positive limit', async () => {
    for (const name of ['l1', 'l2']) await call(suite.server, 'POST', '/api/v1/namespaces/default/configmaps', { body: { metadata: { name, labels: { odd: 'limit' } } } });
    const r = await call(suite.server, 'GET', '/api/v1/namespaces/default/configmaps?labelSelector=odd%3Dlimit&limit=-5');
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json().items.map((i: { metadata: { name: string } }) => i.metadata.name), ['l1', 'l2']);
    assert.equal(r.json().metadata.continue, undefined);
  });

  it('a PUT naming another object, and a patch that renames or moves one, are 400s', async () => {
    const cms = '/api/v1/namespaces/default/configmaps';
    await call(suite.server, 'POST', cms, { body: { metadata: { name: 'named' } } });
    const put = await call(suite.server, 'PUT', `${cms}/named`, { body: { metadata: { name: 'other' } } });
    assert.equal(put.status, 400);
    assert.equal(put.json().message, 'the name of the object (other) does not match the name on the URL (named)');
    const rename = await call(suite.server, 'PATCH', `${cms}/named`, { body: { metadata: { name: 'renamed' } }, contentType: 'application/merge-patch+json' });
    assert.equal(rename.status, 400);
    assert.equal(rename.json().message, 'the name of the object (renamed) does not match the name on the URL (named)');
    const move = await call(suite.server, 'PATCH', `${cms}/named`, { body: { metadata: { namespace: 'kube-system' } }, contentType: 'application/merge-patch+json' });
    assert.equal(move.status, 400);
    assert.equal(move.json().message, 'the namespace of the provided object does not match the namespace sent on the request');
  });
});
