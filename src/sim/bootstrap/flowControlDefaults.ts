import type { KubeObject } from '../../shared/k8s.ts';

// The API Priority and Fairness configuration kube-apiserver v1.28 creates at start (its
// flowcontrol bootstrap: the mandatory exempt and catch-all objects, then the suggested ones), as
// k8s.io/apiserver/pkg/apis/flowcontrol/bootstrap defines them, each marked for the server to keep
// its spec up to date. The sim does not enforce them; tools that list or read them find them.

const API_VERSION = 'flowcontrol.apiserver.k8s.io/v1beta3';
const metadata = (name: string) => ({ name, annotations: { 'apf.kubernetes.io/autoupdate-spec': 'true' } });
const level = (name: string, spec: object): KubeObject => ({ apiVersion: API_VERSION, kind: 'PriorityLevelConfiguration', metadata: metadata(name), spec });
const schema = (name: string, spec: object): KubeObject => ({ apiVersion: API_VERSION, kind: 'FlowSchema', metadata: metadata(name), spec });

const ALL_RESOURCES = { verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] };

export const PRIORITY_LEVEL_CONFIGURATIONS: KubeObject[] = [
  level('catch-all', { type: 'Limited', limited: { nominalConcurrencyShares: 5, limitResponse: { type: 'Reject' }, lendablePercent: 0 } }),
  level('exempt', { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } }),
  level('system', { type: 'Limited', limited: { nominalConcurrencyShares: 30, limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 6, queueLengthLimit: 50 } }, lendablePercent: 33 } }),
  level('node-high', { type: 'Limited', limited: { nominalConcurrencyShares: 40, limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 6, queueLengthLimit: 50 } }, lendablePercent: 25 } }),
  level('leader-election', { type: 'Limited', limited: { nominalConcurrencyShares: 10, limitResponse: { type: 'Queue', queuing: { queues: 16, handSize: 4, queueLengthLimit: 50 } }, lendablePercent: 0 } }),
  level('workload-high', { type: 'Limited', limited: { nominalConcurrencyShares: 40, limitResponse: { type: 'Queue', queuing: { queues: 128, handSize: 6, queueLengthLimit: 50 } }, lendablePercent: 50 } }),
  level('workload-low', { type: 'Limited', limited: { nominalConcurrencyShares: 100, limitResponse: { type: 'Queue', queuing: { queues: 128, handSize: 6, queueLengthLimit: 50 } }, lendablePercent: 90 } }),
  level('global-default', { type: 'Limited', limited: { nominalConcurrencyShares: 20, limitResponse: { type: 'Queue', queuing: { queues: 128, handSize: 6, queueLengthLimit: 50 } }, lendablePercent: 50 } }),
];

export const FLOW_SCHEMAS: KubeObject[] = [
  schema('exempt', { priorityLevelConfiguration: { name: 'exempt' }, matchingPrecedence: 1, rules: [{ subjects: [{ kind: 'Group', group: { name: 'system:masters' } }], resourceRules: [ALL_RESOURCES], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }] }),
  schema('catch-all', { priorityLevelConfiguration: { name: 'catch-all' }, matchingPrecedence: 10000, distinguisherMethod: { type: 'ByUser' }, rules: [{ subjects: [{ kind: 'Group', group: { name: 'system:unauthenticated' } }, { kind: 'Group', group: { name: 'system:authenticated' } }], resourceRules: [ALL_RESOURCES], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }] }),
  schema('system-nodes', { priorityLevelConfiguration: { name: 'system' }, matchingPrecedence: 500, distinguisherMethod: { type: 'ByUser' }, rules: [{ subjects: [{ kind: 'Group', group: { name: 'system:nodes' } }], resourceRules: [ALL_RESOURCES], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }] }),
  schema('system-node-high', { priorityLevelConfiguration: { name: 'node-high' }, matchingPrecedence: 400, distinguisherMethod: { type: 'ByUser' }, rules: [{ subjects: [{ kind: 'Group', group: { name: 'system:nodes' } }], resourceRules: [{ verbs: ['*'], apiGroups: [''], resources: ['nodes', 'nodes/status'], clusterScope: true, namespaces: ['*'] }, { verbs: ['*'], apiGroups: ['coordination.k8s.io'], resources: ['leases'], namespaces: ['*'] }] }] }),
  schema('probes', { priorityLevelConfiguration: { name: 'exempt' }, matchingPrecedence: 2, rules: [{ subjects: [{ kind: 'Group', group: { name: 'system:unauthenticated' } }, { kind: 'Group', group: { name: 'system:authenticated' } }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }] }] }),
  schema('system-leader-election', { priorityLevelConfiguration: { name: 'leader-election' }, matchingPrecedence: 100, distinguisherMethod: { type: 'ByUser' }, rules: [{ subjects: [{ kind: 'User', user: { name: 'system:kube-controller-manager' } }, { kind: 'User', user: { name: 'system:kube-scheduler' } }, { kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name: '*' } }], resourceRules: [{ verbs: ['get', 'create', 'update'], apiGroups: ['coordination.k8s.io'], resources: ['leases'], namespaces: ['*'] }] }] }),
  schema('workload-leader-election', { priorityLevelConfiguration: { name: 'leader-election' }, matchingPrecedence: 200, distinguisherMethod: { type: 'ByUser' }, rules: [{ subjects: [{ kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name: '*' } }], resourceRules: [{ verbs: ['get', 'create', 'update'], apiGroups: [''], resources: ['endpoints', 'configmaps'], namespaces: ['*'] }, { verbs: ['get', 'create', 'update'], apiGroups: ['coordination.k8s.io'], resources: ['leases'], namespaces: ['*'] }] }] }),
  schema('endpoint-controller', { priorityLevelConfiguration: { name: 'workload-high' }, matchingPrecedence: 150, distinguisherMethod: { type: 'ByUser' }, rules: [{ subjects: [{ kind: 'User', user: { name: 'system:kube-controller-manager' } }, { kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name: 'endpoint-controller' } }, { kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name: 'endpointslicemirroring-controller' } }], resourceRules: [{ verbs: ['get', 'create', 'update'], apiGroups: [''], resources: ['endpoints'], namespaces: ['*'] }] }] }),
  schema('kube-controller-manager', { priorityLevelConfiguration: { name: 'workload-high' }, matchingPrecedence: 800, distinguisherMethod: { type: 'ByNamespace' }, rules: [{ subjects: [{ kind: 'User', user: { name: 'system:kube-controller-manager' } }], resourceRules: [ALL_RESOURCES], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }] }),
  schema('kube-scheduler', { priorityLevelConfiguration: { name: 'workload-high' }, matchingPrecedence: 800, distinguisherMethod: { type: 'ByNamespace' }, rules: [{ subjects: [{ kind: 'User', user: { name: 'system:kube-scheduler' } }], resourceRules: [ALL_RESOURCES], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }] }),
  schema('kube-system-service-accounts', { priorityLevelConfiguration: { name: 'workload-high' }, matchingPrecedence: 900, distinguisherMethod: { type: 'ByNamespace' }, rules: [{ subjects: [{ kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name: '*' } }], resourceRules: [ALL_RESOURCES], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }] }),
  schema('service-accounts', { priorityLevelConfiguration: { name: 'workload-low' }, matchingPrecedence: 9000, distinguisherMethod: { type: 'ByUser' }, rules: [{ subjects: [{ kind: 'Group', group: { name: 'system:serviceaccounts' } }], resourceRules: [ALL_RESOURCES], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }] }),
  schema('global-default', { priorityLevelConfiguration: { name: 'global-default' }, matchingPrecedence: 9900, distinguisherMethod: { type: 'ByUser' }, rules: [{ subjects: [{ kind: 'Group', group: { name: 'system:unauthenticated' } }, { kind: 'Group', group: { name: 'system:authenticated' } }], resourceRules: [ALL_RESOURCES], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }] }),
];
