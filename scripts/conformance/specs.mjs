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
