import type { KubeObject } from '../../shared/k8s.ts';
import type { SharedIndexInformer } from '../../informer/index.ts';
import { jsonEqual } from '../vocabulary/jsonEqual.ts';
import { labelSelectorText, parseLabelSelector } from '../../shared/labelSelector.ts';
import type { SimObjects } from '../simObjects.ts';
import type { RequestContext } from '../store/types.ts';
import { isApiError, GVR } from './objectAccess.ts';
import type { PolicyRule } from './policyRules.ts';

// kube-controller-manager's clusterrole-aggregation controller: a ClusterRole with an
// aggregationRule (admin, edit, view, and any of a CRD author's own) holds the union of the rules
// of every ClusterRole its selectors match, kept current as those change. `aggregate-to-view`
// roles flow into view, view into edit (it carries aggregate-to-edit), edit into admin.

type Role = Readonly<KubeObject> & { rules?: PolicyRule[]; aggregationRule?: { clusterRoleSelectors?: unknown[] } };

/** The rules `role` aggregates: each selector's matches in name order, first copy of each rule kept. */
export function aggregatedRules(role: Role, all: readonly Role[]): PolicyRule[] {
  const rules: PolicyRule[] = [];
  for (const selector of role.aggregationRule?.clusterRoleSelectors ?? []) {
    const matches = parseLabelSelector(labelSelectorText(selector));
    const members = all.filter((r) => r.metadata.name !== role.metadata.name && matches.matches(r.metadata.labels));
    members.sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
    for (const member of members) for (const rule of member.rules ?? []) if (!rules.some((r) => jsonEqual(r, rule))) rules.push(rule);
  }
  return rules;
}

export function syncAggregatedRole(cluster: SimObjects, clusterRoles: SharedIndexInformer, name: string, ctx: RequestContext): void {
  const role = clusterRoles.indexer.get(name) as Role | undefined;
  if (!role?.aggregationRule) return;
  const rules = aggregatedRules(role, clusterRoles.indexer.list() as Role[]);
  if (jsonEqual(rules, role.rules ?? [])) return;
  const next = structuredClone(role) as KubeObject;
  next['rules'] = rules;
  try {
    cluster.update(GVR.clusterroles, '', name, next, undefined, ctx);
  } catch (err) {
    if (!isApiError(err, 404)) throw err;
  }
}
