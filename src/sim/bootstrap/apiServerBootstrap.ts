import type { GroupVersionResource, KubeObject } from '../../shared/k8s.ts';
import type { SimObjects } from '../simObjects.ts';
import type { RequestContext } from '../store/types.ts';
import { timestamp } from '../vocabulary/objectMeta.ts';
import { BOOTSTRAP_POLICY } from './bootstrapPolicy.ts';
import { FLOW_SCHEMAS, PRIORITY_LEVEL_CONFIGURATIONS } from './flowControlDefaults.ts';
import { createIfMissing, getOrUndefined, GVR } from './objectAccess.ts';
import { reconcileBinding, reconcileRole, type Reconciled } from './policyReconcile.ts';

// What kube-apiserver's post-start hooks write before the server reports ready: the bootstrap RBAC
// policy (created, or reconciled additively into what a restarted store already holds), the
// system PriorityClasses and API Priority and Fairness' default configuration (created when
// missing, never changed). Runs once per start; the sim's
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

// The managers kube-apiserver's APF config controller writes as: its producer creates the
// objects, its consumer applies each FlowSchema's Dangling condition.
const APF_PRODUCER = 'api-priority-and-fairness-config-producer-v1';
const APF_CONSUMER = 'api-priority-and-fairness-config-consumer-v1';

/** A FlowSchema's status as the APF controller applies it: its priority level exists. */
function markNotDangling(cluster: SimObjects, schema: KubeObject): void {
  const level = (schema.spec as { priorityLevelConfiguration: { name: string } }).priorityLevelConfiguration.name;
  const condition = {
    type: 'Dangling', status: 'False', lastTransitionTime: timestamp(cluster.clock.now()), reason: 'Found',
    message: `This FlowSchema references the PriorityLevelConfiguration object named ${JSON.stringify(level)} and it exists`,
  };
  const body = { apiVersion: schema.apiVersion, kind: schema.kind, metadata: { name: schema.metadata.name }, status: { conditions: [condition] } };
  cluster.patch(GVR.flowschemas, '', schema.metadata.name ?? '', 'apply', body, 'status', { fieldManager: APF_CONSUMER, force: true });
}

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
  const createOnce = (gvr: GroupVersionResource, obj: KubeObject, ctx?: RequestContext): boolean => {
    if (getOrUndefined(cluster, gvr, '', obj.metadata.name ?? '')) return false;
    createIfMissing(cluster, gvr, '', obj, ctx);
    summary.created++;
    return true;
  };
  for (const pc of SYSTEM_PRIORITY_CLASSES) createOnce(GVR.priorityclasses, pc);
  for (const level of PRIORITY_LEVEL_CONFIGURATIONS) createOnce(GVR.prioritylevelconfigurations, level, { fieldManager: APF_PRODUCER });
  for (const schema of FLOW_SCHEMAS) {
    if (createOnce(GVR.flowschemas, schema, { fieldManager: APF_PRODUCER })) markNotDangling(cluster, schema);
  }
  return summary;
}

function namespaceExists(cluster: SimObjects, obj: KubeObject): boolean {
  return getOrUndefined(cluster, GVR.namespaces, '', obj.metadata.namespace ?? '') !== undefined;
}
