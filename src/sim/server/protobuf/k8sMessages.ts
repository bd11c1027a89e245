// Field tables for the Kubernetes kinds whose protobuf bodies we decode: the ones clients send
// as protobuf without being asked (controller-runtime's leader election, event recorder and
// ConfigMap/Secret/RBAC writes; `kubectl create namespace|configmap|secret` and `kubectl auth` from
// kubectl 1.32 on, `kubectl create rolebinding|clusterrolebinding` already in 1.28).
// Field numbers and names follow the published API (k8s.io/api generated.proto).

export type Scalar = 'string' | 'bytes' | 'bool' | 'int' | 'time' | 'microTime' | 'fieldsV1';

export interface FieldSpec {
  name: string;
  type: Scalar | MessageSpec;
  repeated?: true;
  /** map<string, value>: entries are messages {key = 1; value = 2}. */
  map?: true;
}

export interface MessageSpec {
  [field: number]: FieldSpec;
}

const f = (name: string, type: Scalar | MessageSpec, extra: Partial<FieldSpec> = {}): FieldSpec => ({ name, type, ...extra });

const OWNER_REFERENCE: MessageSpec = {
  1: f('kind', 'string'),
  3: f('name', 'string'),
  4: f('uid', 'string'),
  5: f('apiVersion', 'string'),
  6: f('controller', 'bool'),
  7: f('blockOwnerDeletion', 'bool'),
};

const MANAGED_FIELDS_ENTRY: MessageSpec = {
  1: f('manager', 'string'),
  2: f('operation', 'string'),
  3: f('apiVersion', 'string'),
  4: f('time', 'time'),
  6: f('fieldsType', 'string'),
  7: f('fieldsV1', 'fieldsV1'),
  8: f('subresource', 'string'),
};

export const OBJECT_META: MessageSpec = {
  1: f('name', 'string'),
  2: f('generateName', 'string'),
  3: f('namespace', 'string'),
  4: f('selfLink', 'string'),
  5: f('uid', 'string'),
  6: f('resourceVersion', 'string'),
  7: f('generation', 'int'),
  8: f('creationTimestamp', 'time'),
  9: f('deletionTimestamp', 'time'),
  10: f('deletionGracePeriodSeconds', 'int'),
  11: f('labels', 'string', { map: true }),
  12: f('annotations', 'string', { map: true }),
  13: f('ownerReferences', OWNER_REFERENCE, { repeated: true }),
  14: f('finalizers', 'string', { repeated: true }),
  17: f('managedFields', MANAGED_FIELDS_ENTRY, { repeated: true }),
};

const OBJECT_REFERENCE: MessageSpec = {
  1: f('kind', 'string'),
  2: f('namespace', 'string'),
  3: f('name', 'string'),
  4: f('uid', 'string'),
  5: f('apiVersion', 'string'),
  6: f('resourceVersion', 'string'),
  7: f('fieldPath', 'string'),
};

const CONFIG_MAP: MessageSpec = {
  1: f('metadata', OBJECT_META),
  2: f('data', 'string', { map: true }),
  3: f('binaryData', 'bytes', { map: true }),
  4: f('immutable', 'bool'),
};

const SECRET: MessageSpec = {
  1: f('metadata', OBJECT_META),
  2: f('data', 'bytes', { map: true }),
  3: f('type', 'string'),
  4: f('stringData', 'string', { map: true }),
  5: f('immutable', 'bool'),
};

const NAMESPACE: MessageSpec = {
  1: f('metadata', OBJECT_META),
  2: f('spec', { 1: f('finalizers', 'string', { repeated: true }) }),
  3: f('status', {
    1: f('phase', 'string'),
    2: f('conditions', { 1: f('type', 'string'), 2: f('status', 'string'), 4: f('lastTransitionTime', 'time'), 5: f('reason', 'string'), 6: f('message', 'string') }, { repeated: true }),
  }),
};

const SERVICE_ACCOUNT: MessageSpec = {
  1: f('metadata', OBJECT_META),
  2: f('secrets', OBJECT_REFERENCE, { repeated: true }),
  3: f('imagePullSecrets', { 1: f('name', 'string') }, { repeated: true }),
  4: f('automountServiceAccountToken', 'bool'),
};

const EVENT: MessageSpec = {
  1: f('metadata', OBJECT_META),
  2: f('involvedObject', OBJECT_REFERENCE),
  3: f('reason', 'string'),
  4: f('message', 'string'),
  5: f('source', { 1: f('component', 'string'), 2: f('host', 'string') }),
  6: f('firstTimestamp', 'time'),
  7: f('lastTimestamp', 'time'),
  8: f('count', 'int'),
  9: f('type', 'string'),
  10: f('eventTime', 'microTime'),
  11: f('series', { 1: f('count', 'int'), 2: f('lastObservedTime', 'microTime') }),
  12: f('action', 'string'),
  13: f('related', OBJECT_REFERENCE),
  14: f('reportingComponent', 'string'),
  15: f('reportingInstance', 'string'),
};

const LEASE: MessageSpec = {
  1: f('metadata', OBJECT_META),
  2: f('spec', {
    1: f('holderIdentity', 'string'),
    2: f('leaseDurationSeconds', 'int'),
    3: f('acquireTime', 'microTime'),
    4: f('renewTime', 'microTime'),
    5: f('leaseTransitions', 'int'),
    6: f('strategy', 'string'),
    7: f('preferredHolder', 'string'),
  }),
};

const LABEL_SELECTOR: MessageSpec = {
  1: f('matchLabels', 'string', { map: true }),
  2: f('matchExpressions', { 1: f('key', 'string'), 2: f('operator', 'string'), 3: f('values', 'string', { repeated: true }) }, { repeated: true }),
};

const POLICY_RULE: MessageSpec = {
  1: f('verbs', 'string', { repeated: true }),
  2: f('apiGroups', 'string', { repeated: true }),
  3: f('resources', 'string', { repeated: true }),
  4: f('resourceNames', 'string', { repeated: true }),
  5: f('nonResourceURLs', 'string', { repeated: true }),
};

const ROLE: MessageSpec = {
  1: f('metadata', OBJECT_META),
  2: f('rules', POLICY_RULE, { repeated: true }),
};

const CLUSTER_ROLE: MessageSpec = {
  ...ROLE,
  3: f('aggregationRule', { 1: f('clusterRoleSelectors', LABEL_SELECTOR, { repeated: true }) }),
};

const ROLE_BINDING: MessageSpec = {
  1: f('metadata', OBJECT_META),
  2: f('subjects', { 1: f('kind', 'string'), 2: f('apiGroup', 'string'), 3: f('name', 'string'), 4: f('namespace', 'string') }, { repeated: true }),
  3: f('roleRef', { 1: f('apiGroup', 'string'), 2: f('kind', 'string'), 3: f('name', 'string') }),
};

// Reviews (`kubectl auth can-i|whoami` from kubectl 1.32 on): only what the server reads; the
// status a client sends along is ignored.
const SELF_SUBJECT_ACCESS_REVIEW: MessageSpec = {
  1: f('metadata', OBJECT_META),
  2: f('spec', {
    1: f('resourceAttributes', {
      1: f('namespace', 'string'),
      2: f('verb', 'string'),
      3: f('group', 'string'),
      4: f('version', 'string'),
      5: f('resource', 'string'),
      6: f('subresource', 'string'),
      7: f('name', 'string'),
    }),
    2: f('nonResourceAttributes', { 1: f('path', 'string'), 2: f('verb', 'string') }),
  }),
};

const SELF_SUBJECT_RULES_REVIEW: MessageSpec = {
  1: f('metadata', OBJECT_META),
  2: f('spec', { 1: f('namespace', 'string') }),
};

const SELF_SUBJECT_REVIEW: MessageSpec = { 1: f('metadata', OBJECT_META) };

const DELETE_OPTIONS: MessageSpec = {
  1: f('gracePeriodSeconds', 'int'),
  2: f('preconditions', { 1: f('uid', 'string'), 2: f('resourceVersion', 'string') }),
  3: f('orphanDependents', 'bool'),
  4: f('propagationPolicy', 'string'),
  5: f('dryRun', 'string', { repeated: true }),
};

/** By `apiVersion/kind` as the envelope's TypeMeta names them. */
export const MESSAGES_BY_TYPE: Record<string, MessageSpec> = {
  'v1/ConfigMap': CONFIG_MAP,
  'v1/Secret': SECRET,
  'v1/Namespace': NAMESPACE,
  'v1/ServiceAccount': SERVICE_ACCOUNT,
  'v1/Event': EVENT,
  'coordination.k8s.io/v1/Lease': LEASE,
  'rbac.authorization.k8s.io/v1/Role': ROLE,
  'rbac.authorization.k8s.io/v1/ClusterRole': CLUSTER_ROLE,
  'rbac.authorization.k8s.io/v1/RoleBinding': ROLE_BINDING,
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': ROLE_BINDING,
  'authorization.k8s.io/v1/SelfSubjectAccessReview': SELF_SUBJECT_ACCESS_REVIEW,
  'authorization.k8s.io/v1/SelfSubjectRulesReview': SELF_SUBJECT_RULES_REVIEW,
  'authentication.k8s.io/v1/SelfSubjectReview': SELF_SUBJECT_REVIEW,
  'meta.k8s.io/v1/DeleteOptions': DELETE_OPTIONS,
  'v1/DeleteOptions': DELETE_OPTIONS,
};
