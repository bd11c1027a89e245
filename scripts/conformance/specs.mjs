// The spec set: Kubernetes' [Conformance] specs that a control plane alone can pass — no kubelet,
// container runtime, DNS, kube-proxy, webhook or aggregator image. The rules below pick them from
// the e2e binary's dry run (list-specs.mjs); specs.txt is their result, committed.
import { readFileSync } from 'node:fs';
import { SPECS_FILE } from './paths.mjs';

/**
 * Each [Conformance] spec is excluded by the first rule that matches it, tested against the
 * spec's full text and the file (under test/e2e/) that defines it; what no rule excludes is in the set.
 */
export const RULES = [
  {
    why: 'node conformance: the kubelet runs its Pods',
    match: (s) => s.text.includes('[NodeConformance]'),
  },
  {
    why: 'needs a webhook or sample-apiserver image',
    match: (s) => /^apimachinery\/(webhook|crd_conversion_webhook|aggregator)\.go$/.test(s.file),
  },
  {
    why: 'Pods that mount volumes and run',
    match: (s) => /^(common\/storage\/|storage\/(subpath|empty_dir_wrapper)\.go$)/.test(s.file),
  },
  {
    why: 'Pod networking, DNS or kube-proxy',
    match: (s) => /^(common\/network\/|network\/(dns|proxy|hostport|service_latency|networking)\.go$)/.test(s.file),
  },
  {
    why: 'containers that run: hooks, security contexts, variable expansion',
    match: (s) => /^(node\/(pre_stop|security_context)\.go|common\/node\/expansion\.go)$/.test(s.file),
  },
  {
    why: 'needs schedulable Nodes',
    match: (s) => /^(scheduling\/(predicates|preemption)\.go|node\/taints\.go)$/.test(s.file) || LISTS_NODES.includes(s.text),
  },
  {
    why: 'waits for Pods to run, become ready or finish (a kubelet\'s work)',
    match: (s) => RUNNING_PODS.includes(s.text),
  },
];

/**
 * Specs in otherwise API-only files that list the Ready, schedulable Nodes first and fail when
 * there are none: the garbage collector's size their ReplicationControllers by them, every DaemonSet
 * and ControllerRevision spec clears the Nodes' labels before it starts.
 */
export const LISTS_NODES = [
  '[sig-apps] ControllerRevision [Serial] should manage the lifecycle of a ControllerRevision [Conformance]',
  '[sig-apps] Daemon set [Serial] should list and delete a collection of DaemonSets [Conformance]',
  '[sig-apps] Daemon set [Serial] should retry creating failed daemon pods [Conformance]',
  '[sig-apps] Daemon set [Serial] should rollback without unnecessary restarts [Conformance]',
  '[sig-apps] Daemon set [Serial] should run and stop complex daemon [Conformance]',
  '[sig-apps] Daemon set [Serial] should run and stop simple daemon [Conformance]',
  '[sig-apps] Daemon set [Serial] should update pod when spec was updated and update strategy is RollingUpdate [Conformance]',
  '[sig-apps] Daemon set [Serial] should verify changes to a daemon set status [Conformance]',
  '[sig-api-machinery] Garbage collector should keep the rc around until all its pods are deleted if the deleteOptions says so [Conformance]',
  '[sig-api-machinery] Garbage collector should not delete dependents that have both valid owner and owner that\'s waiting for dependents to be deleted [Conformance]',
  '[sig-api-machinery] Garbage collector should orphan pods created by rc if delete options say so [Conformance]',
];

/**
 * Specs in otherwise API-only files that wait on a kubelet: each read in the source (a Pod that
 * must be Running or Ready, a Job that must complete, a rollout that must become available, an
 * exec into a Pod) and confirmed against the nodeless real server.
 */
export const RUNNING_PODS = [
  '[sig-api-machinery] Namespaces [Serial] should ensure that all pods are removed when a namespace is deleted [Conformance]',
  '[sig-apps] Deployment deployment should delete old replica sets [Conformance]',
  '[sig-apps] Deployment Deployment should have a working scale subresource [Conformance]',
  '[sig-apps] Deployment deployment should support proportional scaling [Conformance]',
  '[sig-apps] Deployment deployment should support rollover [Conformance]',
  '[sig-apps] Deployment RecreateDeployment should delete old pods and create new ones [Conformance]',
  '[sig-apps] Deployment RollingUpdateDeployment should delete old pods and create new ones [Conformance]',
  '[sig-apps] Deployment should run the lifecycle of a Deployment [Conformance]',
  '[sig-apps] Deployment should validate Deployment Status endpoints [Conformance]',
  '[sig-apps] DisruptionController should block an eviction until the PDB is updated to allow it [Conformance]',
  '[sig-apps] DisruptionController should observe PodDisruptionBudget status updated [Conformance]',
  '[sig-apps] DisruptionController should update/patch PodDisruptionBudget status [Conformance]',
  '[sig-apps] Job should adopt matching orphans and release non-matching pods [Conformance]',
  '[sig-apps] Job should apply changes to a job status [Conformance]',
  '[sig-apps] Job should create pods for an Indexed job with completion indexes and specified hostname [Conformance]',
  '[sig-apps] Job should delete a job [Conformance]',
  '[sig-apps] Job should manage the lifecycle of a job [Conformance]',
  '[sig-apps] Job should run a job to completion when tasks sometimes fail and are locally restarted [Conformance]',
  '[sig-apps] ReplicaSet Replace and Patch tests [Conformance]',
  '[sig-apps] ReplicaSet Replicaset should have a working scale subresource [Conformance]',
  '[sig-apps] ReplicaSet should adopt matching pods on creation and release no longer matching pods [Conformance]',
  '[sig-apps] ReplicaSet should list and delete a collection of ReplicaSets [Conformance]',
  '[sig-apps] ReplicaSet should serve a basic image on each replica with a public image  [Conformance]',
  '[sig-apps] ReplicaSet should validate Replicaset Status endpoints [Conformance]',
  '[sig-apps] ReplicationController should adopt matching pods on creation [Conformance]',
  '[sig-apps] ReplicationController should serve a basic image on each replica with a public image  [Conformance]',
  '[sig-apps] ReplicationController should test the lifecycle of a ReplicationController [Conformance]',
  '[sig-apps] StatefulSet Basic StatefulSet functionality [StatefulSetBasic] Burst scaling should run to completion even with unhealthy pods [Slow] [Conformance]',
  '[sig-apps] StatefulSet Basic StatefulSet functionality [StatefulSetBasic] Scaling should happen in predictable order and halt if any stateful pod is unhealthy [Slow] [Conformance]',
  '[sig-apps] StatefulSet Basic StatefulSet functionality [StatefulSetBasic] should have a working scale subresource [Conformance]',
  '[sig-apps] StatefulSet Basic StatefulSet functionality [StatefulSetBasic] should list, patch and delete a collection of StatefulSets [Conformance]',
  '[sig-apps] StatefulSet Basic StatefulSet functionality [StatefulSetBasic] should perform canary updates and phased rolling updates of template modifications [Conformance]',
  '[sig-apps] StatefulSet Basic StatefulSet functionality [StatefulSetBasic] should perform rolling updates and roll backs of template modifications [Conformance]',
  '[sig-apps] StatefulSet Basic StatefulSet functionality [StatefulSetBasic] Should recreate evicted statefulset [Conformance]',
  '[sig-apps] StatefulSet Basic StatefulSet functionality [StatefulSetBasic] should validate Statefulset Status endpoints [Conformance]',
  '[sig-auth] ServiceAccounts ServiceAccountIssuerDiscovery should support OIDC discovery of service account issuer [Conformance]',
  '[sig-auth] ServiceAccounts should mount an API token into pods  [Conformance]',
  '[sig-auth] ServiceAccounts should mount projected service account token [Conformance]',
  '[sig-network] EndpointSlice should create Endpoints and EndpointSlices for Pods matching a Service [Conformance]',
  '[sig-network] Services should be able to change the type from ClusterIP to ExternalName [Conformance]',
  '[sig-network] Services should be able to change the type from ExternalName to ClusterIP [Conformance]',
  '[sig-network] Services should be able to change the type from ExternalName to NodePort [Conformance]',
  '[sig-network] Services should be able to change the type from NodePort to ExternalName [Conformance]',
  '[sig-network] Services should be able to create a functioning NodePort service [Conformance]',
  '[sig-network] Services should be able to switch session affinity for NodePort service [LinuxOnly] [Conformance]',
  '[sig-network] Services should be able to switch session affinity for service with type clusterIP [LinuxOnly] [Conformance]',
  '[sig-network] Services should have session affinity work for NodePort service [LinuxOnly] [Conformance]',
  '[sig-network] Services should have session affinity work for service with type clusterIP [LinuxOnly] [Conformance]',
  '[sig-network] Services should serve a basic endpoint from pods  [Conformance]',
  '[sig-network] Services should serve multiport endpoints from pods  [Conformance]',
  '[sig-node] Pods should delete a collection of pods [Conformance]',
  '[sig-node] Pods should patch a pod status [Conformance]',
  '[sig-node] Pods should run through the lifecycle of Pods and PodStatus [Conformance]',
];

/**
 * The wider set (specs-wider.txt): specs of the same binary outside [Conformance] that a control
 * plane alone can pass and that controllers lean on, picked by name from the dry run. Each group
 * says what it measures; a candidate the nodeless kube-apiserver itself fails is in WIDER_EXCLUDED.
 */
export const WIDER = [
  {
    what: "server-side apply, CEL validation rules, discovery, OpenAPI v3 of CRDs, generated clients, Tables, paging, request timeouts, health checks, client-go's watch negotiation",
    specs: [
      "[sig-api-machinery] CustomResourceValidationRules [Privileged:ClusterAdmin] MUST NOT fail validation for create of a custom resource that satisfies the x-kubernetes-validations rules",
      "[sig-api-machinery] CustomResourceValidationRules [Privileged:ClusterAdmin] MUST fail create of a custom resource definition that contains a x-kubernetes-validations rule that refers to a property that do not exist",
      "[sig-api-machinery] CustomResourceValidationRules [Privileged:ClusterAdmin] MUST fail create of a custom resource definition that contains an x-kubernetes-validations rule that contains a syntax error",
      "[sig-api-machinery] CustomResourceValidationRules [Privileged:ClusterAdmin] MUST fail create of a custom resource definition that contains an x-kubernetes-validations rule that exceeds the estimated cost limit",
      "[sig-api-machinery] CustomResourceValidationRules [Privileged:ClusterAdmin] MUST fail create of a custom resource that exceeds the runtime cost limit for x-kubernetes-validations rule execution",
      "[sig-api-machinery] CustomResourceValidationRules [Privileged:ClusterAdmin] MUST fail update of a custom resource that does not satisfy a x-kubernetes-validations transition rule",
      "[sig-api-machinery] CustomResourceValidationRules [Privileged:ClusterAdmin] MUST fail validation for create of a custom resource that does not satisfy the x-kubernetes-validations rules",
      "[sig-api-machinery] Discovery Custom resource should have storage version hash",
      "[sig-api-machinery] Discovery should accurately determine present and missing resources",
      "[sig-api-machinery] Generated clientset should create pods, set the deletionTimestamp and deletionGracePeriodSeconds of the pod",
      "[sig-api-machinery] Generated clientset should create v1 cronJobs, delete cronJobs, watch cronJobs",
      "[sig-api-machinery] OpenAPIV3 should publish OpenAPI V3 for CustomResourceDefinition",
      "[sig-api-machinery] OpenAPIV3 should round trip OpenAPI V3 for all built-in group versions",
      "[sig-api-machinery] Server request timeout default timeout should be used if the specified timeout in the request URL is 0s",
      "[sig-api-machinery] Server request timeout should return HTTP status code 400 if the user specifies an invalid timeout in the request URL",
      "[sig-api-machinery] Server request timeout the request should be served with a default timeout if the specified timeout in the request URL exceeds maximum allowed",
      "[sig-api-machinery] ServerSideApply should create an applied object if it does not already exist",
      "[sig-api-machinery] ServerSideApply should give up ownership of a field if forced applied by a controller",
      "[sig-api-machinery] ServerSideApply should ignore conflict errors if force apply is used",
      "[sig-api-machinery] ServerSideApply should not remove a field if an owner unsets the field but other managers still have ownership of the field",
      "[sig-api-machinery] ServerSideApply should remove a field if it is owned but removed in the apply request",
      "[sig-api-machinery] ServerSideApply should work for CRDs",
      "[sig-api-machinery] ServerSideApply should work for subresources",
      "[sig-api-machinery] Servers with support for API chunking should return chunks of results for list calls",
      "[sig-api-machinery] Servers with support for API chunking should support continue listing from the last key if the original version has been compacted away, though the list is inconsistent [Slow]",
      "[sig-api-machinery] Servers with support for Table transformation should return chunks of table results for list calls",
      "[sig-api-machinery] Servers with support for Table transformation should return generic metadata details across all namespaces for nodes",
      "[sig-api-machinery] Servers with support for Table transformation should return pod details",
      "[sig-api-machinery] client-go should negotiate watch and report errors with accept \"application/json\"",
      "[sig-api-machinery] client-go should negotiate watch and report errors with accept \"application/json,application/vnd.kubernetes.protobuf\"",
      "[sig-api-machinery] client-go should negotiate watch and report errors with accept \"application/vnd.kubernetes.protobuf\"",
      "[sig-api-machinery] client-go should negotiate watch and report errors with accept \"application/vnd.kubernetes.protobuf,application/json\"",
      "[sig-api-machinery] health handlers should contain necessary checks",
    ],
  },
  {
    what: "the garbage collector, quota and namespace deletion a controller's objects go through",
    specs: [
      "[sig-api-machinery] Garbage collector should delete jobs and pods created by cronjob",
      "[sig-api-machinery] Garbage collector should orphan pods created by rc if deleteOptions.OrphanDependents is nil",
      "[sig-api-machinery] Garbage collector should support cascading deletion of custom resources",
      "[sig-api-machinery] Garbage collector should support orphan deletion of custom resources",
      "[sig-api-machinery] Namespaces [Serial] should delete fast enough (90 percent of 100 namespaces in 150 seconds)",
      "[sig-api-machinery] ResourceQuota should create a ResourceQuota and capture the life of a custom resource.",
      "[sig-api-machinery] ResourceQuota should create a ResourceQuota and capture the life of a persistent volume claim",
      "[sig-api-machinery] ResourceQuota should create a ResourceQuota and capture the life of a persistent volume claim with a storage class",
      "[sig-api-machinery] ResourceQuota should verify ResourceQuota with cross namespace pod affinity scope using scope-selectors.",
    ],
  },
  {
    what: "API Priority and Fairness classifying a request by a FlowSchema made for it",
    specs: [
      "[sig-api-machinery] API priority and fairness should ensure that requests can be classified by adding FlowSchema and PriorityLevelConfiguration",
    ],
  },
  {
    what: "the apps controllers' decisions that need no Pod to run: CronJob scheduling, time zones and lost Jobs, Job deadlines, quota failures",
    specs: [
      "[sig-apps] CronJob should be able to schedule after more than 100 missed schedule",
      "[sig-apps] CronJob should not emit unexpected warnings",
      "[sig-apps] CronJob should remove from active list jobs that have been deleted",
      "[sig-apps] CronJob should support timezone",
      "[sig-apps] Deployment deployment reaping should cascade to its replica sets and pods",
      "[sig-apps] Deployment test Deployment ReplicaSet orphaning and adoption regarding controllerRef",
      "[sig-apps] DisruptionController should observe that the PodDisruptionBudget status is not updated for unmanaged pods",
      "[sig-apps] Job should delete pods when suspended",
      "[sig-apps] Job should fail when exceeds active deadline",
      "[sig-apps] Job should not create pods when created in suspend state",
      "[sig-apps] ReplicaSet should surface a failure condition on a common issue like exceeded quota",
    ],
  },
];

/**
 * Candidates of the wider set left out, each with why: the nodeless kube-apiserver and
 * kube-controller-manager (run.mjs --target real) fail them, so they measure the harness, not the sim.
 */
export const WIDER_EXCLUDED = [
  {
    why: 'waits for Pods to run, become ready or finish (a kubelet\'s work): the nodeless kube-apiserver fails it',
    specs: [
      '[sig-apps] Deployment test Deployment ReplicaSet orphaning and adoption regarding controllerRef',
      '[sig-apps] Deployment deployment reaping should cascade to its replica sets and pods',
      '[sig-apps] DisruptionController should observe that the PodDisruptionBudget status is not updated for unmanaged pods',
      '[sig-apps] Job should not create pods when created in suspend state',
      '[sig-apps] Job should delete pods when suspended',
      '[sig-apps] CronJob should not emit unexpected warnings',
      '[sig-api-machinery] Generated clientset should create pods, set the deletionTimestamp and deletionGracePeriodSeconds of the pod',
    ],
  },
  {
    why: 'needs a Node object: a Table of the cluster\'s Nodes must have a row',
    specs: ['[sig-api-machinery] Servers with support for Table transformation should return generic metadata details across all namespaces for nodes'],
  },
];

/** Every spec text of the wider set, in WIDER's order. */
export const widerSpecs = () => WIDER.flatMap((g) => g.specs).filter((s) => !WIDER_EXCLUDED.some((e) => e.specs.includes(s)));

/** Applies RULES to dry-run specs ({ text, file }); returns { included, excluded: [{ spec, why }] }. */
export function classify(specs) {
  const included = [];
  const excluded = [];
  for (const spec of specs) {
    const rule = RULES.find((r) => r.match(spec));
    if (rule) excluded.push({ spec, why: rule.why });
    else included.push(spec);
  }
  return { included, excluded };
}

/** The committed spec set, one full spec text a line. */
export function loadSpecs(file = SPECS_FILE) {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() && !l.startsWith('#'));
}

/**
 * A Go regexp (ginkgo's --focus) matching exactly these spec texts. Ginkgo matches it against the
 * suite's description, a space and the spec's text; the e2e runner names its suite this.
 */
export function focusRegexp(names) {
  const quote = (s) => s.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
  return `^Kubernetes e2e suite (?:${names.map(quote).join('|')})$`;
}
