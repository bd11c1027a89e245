import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeKubernetesProtobuf, isKubernetesProtobuf, UnsupportedProtobufKind } from '../../../../src/sim/server/protobuf/decodeK8sProtobuf.ts';
import { duration, embeddedJson, goDuration } from '../../../../src/sim/server/protobuf/specialTypes.ts';

// A minimal protobuf writer, enough to build the bodies Go clients send.
function varint(n: number): number[] {
  const out: number[] = [];
  let v = n < 0 ? 2 ** 64 + n : n;
  while (v >= 128) {
    out.push((v % 128) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}
const bytes = (field: number, payload: Uint8Array | number[] | string): number[] => {
  const data = typeof payload === 'string' ? [...Buffer.from(payload)] : [...payload];
  return [...varint(field * 8 + 2), ...varint(data.length), ...data];
};
const num = (field: number, n: number): number[] => [...varint(field * 8), ...varint(n)];
const entry = (field: number, key: string, value: string | number[]) => bytes(field, [...bytes(1, key), ...bytes(2, value)]);
const envelope = (apiVersion: string, kind: string, raw: number[]) =>
  new Uint8Array([0x6b, 0x38, 0x73, 0x00, ...bytes(1, [...bytes(1, apiVersion), ...bytes(2, kind)]), ...bytes(2, raw), ...bytes(4, 'application/vnd.kubernetes.protobuf')]);

test('a ConfigMap with metadata, maps, owner references and an unset timestamp', () => {
  const metadata = [
    ...bytes(1, 'cm1'),
    ...bytes(2, ''), // Go writes empty optional strings: they must not appear in JSON
    ...bytes(3, 'ns'),
    ...bytes(8, []), // a zero creationTimestamp
    ...entry(11, 'app', 'web'),
    ...bytes(13, [...bytes(1, 'Deployment'), ...bytes(3, 'web'), ...bytes(4, 'u-1'), ...bytes(5, 'apps/v1'), ...num(6, 1)]),
    ...bytes(14, 'example.com/hold'),
  ];
  const raw = [...bytes(1, metadata), ...entry(2, 'k', 'v'), ...entry(2, 'k2', 'v2'), ...entry(3, 'bin', [1, 2, 3]), ...num(4, 1)];
  const body = envelope('v1', 'ConfigMap', raw);
  assert.equal(isKubernetesProtobuf(body), true);
  assert.deepEqual(decodeKubernetesProtobuf(body), {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'cm1',
      namespace: 'ns',
      labels: { app: 'web' },
      ownerReferences: [{ kind: 'Deployment', name: 'web', uid: 'u-1', apiVersion: 'apps/v1', controller: true }],
      finalizers: ['example.com/hold'],
    },
    data: { k: 'v', k2: 'v2' },
    binaryData: { bin: 'AQID' },
    immutable: true,
  });
});

test('a Lease with micro-second times, and DeleteOptions', () => {
  const renew = [...num(1, 1767225600), ...num(2, 123456000)];
  const spec = [...bytes(1, 'me'), ...num(2, 15), ...bytes(4, renew), ...num(5, 0)];
  const lease = decodeKubernetesProtobuf(envelope('coordination.k8s.io/v1', 'Lease', [...bytes(1, bytes(1, 'leader')), ...bytes(2, spec)]));
  assert.deepEqual(lease['spec'], { holderIdentity: 'me', leaseDurationSeconds: 15, renewTime: '2026-01-01T00:00:00.123456Z', leaseTransitions: 0 });
  const del = decodeKubernetesProtobuf(envelope('meta.k8s.io/v1', 'DeleteOptions', [...num(1, 0), ...bytes(4, 'Background'), ...bytes(2, bytes(1, 'u-1'))]));
  assert.deepEqual(del, { apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions', gracePeriodSeconds: 0, propagationPolicy: 'Background', preconditions: { uid: 'u-1' } });
  // client-go deletes a Deployment with apps/v1 DeleteOptions: every group version has them.
  const appsDel = decodeKubernetesProtobuf(envelope('apps/v1', 'DeleteOptions', [...bytes(4, 'Foreground')]));
  assert.deepEqual(appsDel, { apiVersion: 'apps/v1', kind: 'DeleteOptions', propagationPolicy: 'Foreground' });
});

test('RBAC: a RoleBinding as `kubectl create rolebinding` sends it, and a ClusterRole with core-group rules and an aggregation rule', () => {
  const subject = [...bytes(1, 'User'), ...bytes(2, 'rbac.authorization.k8s.io'), ...bytes(3, 'alice'), ...bytes(4, '')];
  const roleRef = [...bytes(1, 'rbac.authorization.k8s.io'), ...bytes(2, 'Role'), ...bytes(3, 'pod-reader')];
  const rb = decodeKubernetesProtobuf(envelope('rbac.authorization.k8s.io/v1', 'RoleBinding', [...bytes(1, [...bytes(1, 'read-pods'), ...bytes(3, 'ns')]), ...bytes(2, subject), ...bytes(3, roleRef)]));
  assert.deepEqual(rb, {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'read-pods', namespace: 'ns' },
    subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }],
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-reader' },
  });
  const rule = [...bytes(1, 'get'), ...bytes(1, 'list'), ...bytes(2, ''), ...bytes(3, 'pods'), ...bytes(4, 'one')];
  const selector = [...entry(1, 'rbac.example.com/aggregate-to-view', 'true'), ...bytes(2, [...bytes(1, 'tier'), ...bytes(2, 'In'), ...bytes(3, 'a')])];
  const cr = decodeKubernetesProtobuf(envelope('rbac.authorization.k8s.io/v1', 'ClusterRole', [...bytes(1, bytes(1, 'view-plus')), ...bytes(2, rule), ...bytes(3, bytes(1, selector))]));
  assert.deepEqual(cr['rules'], [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], resourceNames: ['one'] }], 'the core group is the empty string');
  assert.deepEqual(cr['aggregationRule'], { clusterRoleSelectors: [{ matchLabels: { 'rbac.example.com/aggregate-to-view': 'true' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['a'] }] }] });
});

test('reviews as kubectl 1.32 sends them: the spec is read, the status sent along is ignored', () => {
  const attributes = [...bytes(1, 'default'), ...bytes(2, 'create'), ...bytes(3, ''), ...bytes(5, 'pods')];
  const ssar = decodeKubernetesProtobuf(envelope('authorization.k8s.io/v1', 'SelfSubjectAccessReview', [...bytes(1, []), ...bytes(2, bytes(1, attributes)), ...bytes(3, num(1, 0))]));
  assert.deepEqual(ssar, { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', metadata: {}, spec: { resourceAttributes: { namespace: 'default', verb: 'create', resource: 'pods' } } });
  const ssrr = decodeKubernetesProtobuf(envelope('authorization.k8s.io/v1', 'SelfSubjectRulesReview', bytes(2, bytes(1, 'default'))));
  assert.deepEqual(ssrr['spec'], { namespace: 'default' });
  assert.deepEqual(decodeKubernetesProtobuf(envelope('authentication.k8s.io/v1', 'SelfSubjectReview', bytes(1, []))), { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview', metadata: {} });
});

test('unknown kinds and broken bodies are told apart', () => {
  assert.throws(() => decodeKubernetesProtobuf(envelope('internal.apiserver.k8s.io/v1alpha1', 'StorageVersion', bytes(1, bytes(1, 'apps.deployments')))), (e: unknown) => e instanceof UnsupportedProtobufKind && e.typeName === 'internal.apiserver.k8s.io/v1alpha1/StorageVersion');
  assert.throws(() => decodeKubernetesProtobuf(new Uint8Array([1, 2, 3, 4])), /no k8s/);
  const truncated = envelope('v1', 'ConfigMap', bytes(1, bytes(1, 'cm'))).subarray(0, 20);
  assert.throws(() => decodeKubernetesProtobuf(truncated), /truncated/);
});

// The apimachinery types with JSON forms of their own, and Go's zero-value rules, in hand-written bytes.
const time = (seconds: number, nanos = 0) => [...num(1, seconds), ...(nanos ? num(2, nanos) : [])];
const intOrString = (v: number | string) => (typeof v === 'number' ? num(2, v) : [...num(1, 1), ...bytes(3, v)]);

test('IntOrString, Quantity, Time and bytes as the JSON encoding prints them', () => {
  const port = (n: number, target: number | string) => bytes(1, [...num(3, n), ...bytes(4, intOrString(target))]);
  const svc = decodeKubernetesProtobuf(envelope('v1', 'Service', [...bytes(1, bytes(1, 's')), ...bytes(2, [...port(80, 8080), ...port(443, 'https')])]));
  assert.deepEqual(svc['spec'], { ports: [{ port: 80, targetPort: 8080 }, { port: 443, targetPort: 'https' }] });

  const quantity = (s: string) => bytes(1, s);
  const resources = [...entry(1, 'cpu', quantity('500m')), ...entry(1, 'memory', quantity('1Gi')), ...entry(2, 'cpu', quantity('100m'))];
  const pod = decodeKubernetesProtobuf(envelope('v1', 'Pod', [...bytes(1, bytes(1, 'p')), ...bytes(2, bytes(2, [...bytes(1, 'c'), ...bytes(8, resources)]))]));
  assert.deepEqual((pod['spec'] as any).containers[0].resources, { limits: { cpu: '500m', memory: '1Gi' }, requests: { cpu: '100m' } }); // eslint-disable-line @typescript-eslint/no-explicit-any

  // NodeCondition times are non-pointer metav1.Time: a zero one is null, as Go's JSON prints it.
  const condition = [...bytes(1, 'Ready'), ...bytes(2, 'True'), ...bytes(3, time(1767225600)), ...bytes(4, [])];
  const node = decodeKubernetesProtobuf(envelope('v1', 'Node', [...bytes(1, bytes(1, 'n1')), ...bytes(3, bytes(4, condition))]));
  assert.deepEqual((node['status'] as any).conditions, [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2026-01-01T00:00:00Z', lastTransitionTime: null }]); // eslint-disable-line @typescript-eslint/no-explicit-any

  const secret = decodeKubernetesProtobuf(envelope('v1', 'Secret', [...bytes(1, bytes(1, 's')), ...entry(2, 'token', [0xde, 0xad, 0xbe, 0xef]), ...bytes(3, 'Opaque')]));
  assert.deepEqual(secret['data'], { token: '3q2+7w==' });
});

test('zero values: omitempty scalars left out, pointers kept, inline structs merged into their parent', () => {
  // DeploymentSpec: replicas is *int32 (0 is a value), paused and minReadySeconds are omitempty.
  const spec = [...num(1, 0), ...num(5, 0), ...num(7, 0)];
  const d = decodeKubernetesProtobuf(envelope('apps/v1', 'Deployment', [...bytes(1, bytes(1, 'd')), ...bytes(2, spec), ...bytes(3, [...num(1, 0), ...num(2, 0)])]));
  assert.deepEqual(d['spec'], { replicas: 0 });
  assert.deepEqual(d['status'], {}, 'DeploymentStatus counters are omitempty');
  // The scale subresource's body: autoscaling/v1 Scale.
  assert.deepEqual(decodeKubernetesProtobuf(envelope('autoscaling/v1', 'Scale', [...bytes(1, bytes(1, 'd')), ...bytes(2, num(1, 5))]))['spec'], { replicas: 5 });
  // Probe embeds ProbeHandler and Volume embeds VolumeSource (json:",inline").
  const probe = [...bytes(1, bytes(2, [...bytes(1, '/healthz'), ...bytes(2, intOrString(8080))])), ...num(3, 0), ...num(4, 10)];
  const volume = [...bytes(1, 'cfg'), ...bytes(2, bytes(19, bytes(1, bytes(1, 'app-config'))))];
  const podSpec = [...bytes(1, volume), ...bytes(2, [...bytes(1, 'c'), ...bytes(10, probe)])];
  const pod = decodeKubernetesProtobuf(envelope('v1', 'Pod', [...bytes(1, bytes(1, 'p')), ...bytes(2, podSpec)]));
  assert.deepEqual(pod['spec'], {
    volumes: [{ name: 'cfg', configMap: { name: 'app-config' } }],
    containers: [{ name: 'c', livenessProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 10 } }],
  });
});

test('Duration, RawExtension and FieldsV1 (types no served kind uses at the top, decoded alike)', () => {
  assert.equal(duration(new Uint8Array(num(1, 90e9))), '1m30s');
  assert.equal(duration(new Uint8Array(num(1, 3600e9))), '1h0m0s');
  assert.equal(duration(new Uint8Array(num(1, 1.5e6))), '1.5ms');
  assert.equal(duration(new Uint8Array([])), '0s');
  assert.equal(goDuration(-2_000_000_001), '-2.000000001s');
  assert.deepEqual(embeddedJson(new Uint8Array(bytes(1, '{"a":[1,2]}'))), { a: [1, 2] });
  assert.equal(embeddedJson(new Uint8Array([])), undefined);
  assert.throws(() => embeddedJson(new Uint8Array(bytes(1, [0x0a, 0x01]))), /not JSON/);
  // managedFields[].fieldsV1 through ObjectMeta.
  const managed = [...bytes(1, 'kubectl'), ...bytes(2, 'Update'), ...bytes(4, time(1767225600)), ...bytes(6, 'FieldsV1'), ...bytes(7, bytes(1, '{"f:data":{}}'))];
  const cm = decodeKubernetesProtobuf(envelope('v1', 'ConfigMap', bytes(1, [...bytes(1, 'cm'), ...bytes(17, managed)])));
  assert.deepEqual((cm['metadata'] as any).managedFields, [{ manager: 'kubectl', operation: 'Update', time: '2026-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': {} } }]); // eslint-disable-line @typescript-eslint/no-explicit-any
});

test('the cluster plumbing kinds decode too: PriorityClass, StorageClass, a webhook configuration, an EndpointSlice', () => {
  // What `kubectl create priorityclass high --value=1000` (1.32) sends: value 1000, globalDefault false.
  assert.deepEqual(decodeKubernetesProtobuf(envelope('scheduling.k8s.io/v1', 'PriorityClass', [...bytes(1, bytes(1, 'high')), ...num(2, 1000), ...num(3, 0)])), {
    apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000,
  });
  assert.deepEqual(decodeKubernetesProtobuf(envelope('storage.k8s.io/v1', 'StorageClass', [...bytes(1, bytes(1, 'fast')), ...bytes(2, 'ebs.csi.aws.com'), ...entry(3, 'type', 'gp3'), ...num(6, 1)])), {
    apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'fast' }, provisioner: 'ebs.csi.aws.com', parameters: { type: 'gp3' }, allowVolumeExpansion: true,
  });
  const webhook = [...bytes(1, 'a.example.com'), ...bytes(2, bytes(3, 'https://a.example.com')), ...bytes(6, 'None'), ...bytes(8, 'v1')];
  const hooks = decodeKubernetesProtobuf(envelope('admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration', [...bytes(1, bytes(1, 'v')), ...bytes(2, webhook)]));
  assert.deepEqual(hooks['webhooks'], [{ name: 'a.example.com', clientConfig: { url: 'https://a.example.com' }, sideEffects: 'None', admissionReviewVersions: ['v1'] }]);
  const slice = decodeKubernetesProtobuf(envelope('discovery.k8s.io/v1', 'EndpointSlice', [...bytes(1, bytes(1, 's')), ...bytes(2, bytes(1, '10.0.0.1')), ...bytes(3, [...num(3, 80)]), ...bytes(4, 'IPv4')]));
  assert.deepEqual([slice['addressType'], slice['endpoints'], slice['ports']], ['IPv4', [{ addresses: ['10.0.0.1'] }], [{ port: 80 }]]);
});

test('a SubjectAccessReview: its extra map of string lists (a wrapper message on the wire) comes out as lists', () => {
  const extra = entry(5, 'scopes', [...bytes(1, 'read'), ...bytes(1, 'write')]);
  const spec = [...bytes(1, [...bytes(1, 'default'), ...bytes(2, 'get'), ...bytes(5, 'pods')]), ...bytes(3, 'jane'), ...bytes(4, 'devs'), ...extra];
  const review = decodeKubernetesProtobuf(envelope('authorization.k8s.io/v1', 'SubjectAccessReview', [...bytes(1, []), ...bytes(2, spec)]));
  assert.deepEqual(review['spec'], { resourceAttributes: { namespace: 'default', verb: 'get', resource: 'pods' }, user: 'jane', groups: ['devs'], extra: { scopes: ['read', 'write'] } });
});
