import type { GroupVersionResource, KubeObject } from '../../shared/k8s.ts';
import type { SimObjects } from '../simObjects.ts';
import { BOOTSTRAP_POLICY } from './bootstrapPolicy.ts';
import { createIfMissing, getOrUndefined, GVR } from './objectAccess.ts';
import { reconcileBinding, reconcileRole, type Reconciled } from './policyReconcile.ts';

// What kube-apiserver's post-start hooks write before the server reports ready: the bootstrap RBAC
// policy (created, or reconciled additively into what a restarted store already holds) and the
// system PriorityClasses (created when missing, never changed). Runs once per start; the sim's
// state dir makes a restart find them in place, so nothing is created twice.

/** scheduling/v1 SystemPriorityClasses, in the order the server creates them. */
export const SYSTEM_PRIORITY_CLASSES: KubeObject[] = [
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'system-node-critical' },
    value: 2000001000,
    description: 'Used for system critical pods that must not be moved from their current node.',
  },
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'system-cluster-critical' },
    value: 2000000000,
    description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  },
];

export interface BootstrapSummary {
  created: number;
  updated: number;
  /** Objects annotated autoupdate=false that lack something of the bootstrap policy. */
  skippedProtected: string[];
}

export function bootstrapApiServer(cluster: SimObjects): BootstrapSummary {
  const summary: BootstrapSummary = { created: 0, updated: 0, skippedProtected: [] };
  const ensure = (gvr: GroupVersionResource, expected: KubeObject, reconcile: (existing: KubeObject, expected: KubeObject) => Reconciled) => {
    const namespace = expected.metadata.namespace ?? '';
    const name = expected.metadata.name ?? '';
    const existing = getOrUndefined(cluster, gvr, namespace, name);
    if (!existing) {
      createIfMissing(cluster, gvr, namespace, expected);
      summary.created++;
      return;
    }
    const result = reconcile(existing, expected);
    if (result.action === 'protected') summary.skippedProtected.push(`${gvr.resource}/${namespace ? `${namespace}/` : ''}${name}`);
    else if (result.action === 'update') {
      cluster.update(gvr, namespace, name, result.object);
      summary.updated++;
    } else if (result.action === 'recreate') {
      cluster.delete(gvr, namespace, name);
      createIfMissing(cluster, gvr, namespace, result.object);
      summary.updated++;
    }
  };
  for (const role of BOOTSTRAP_POLICY.clusterRoles) ensure(GVR.clusterroles, role, reconcileRole);
  for (const binding of BOOTSTRAP_POLICY.clusterRoleBindings) ensure(GVR.clusterrolebindings, binding, reconcileBinding);
  for (const role of BOOTSTRAP_POLICY.roles) if (namespaceExists(cluster, role)) ensure(GVR.roles, role, reconcileRole);
  for (const binding of BOOTSTRAP_POLICY.roleBindings) if (namespaceExists(cluster, binding)) ensure(GVR.rolebindings, binding, reconcileBinding);
  for (const pc of SYSTEM_PRIORITY_CLASSES) {
    if (!getOrUndefined(cluster, GVR.priorityclasses, '', pc.metadata.name ?? '')) {
      createIfMissing(cluster, GVR.priorityclasses, '', pc);
      summary.created++;
    }
  }
  return summary;
}

function namespaceExists(cluster: SimObjects, obj: KubeObject): boolean {
  return getOrUndefined(cluster, GVR.namespaces, '', obj.metadata.namespace ?? '') !== undefined;
}
