import type { KubeObject } from '../../shared/k8s.ts';
import { jsonEqual } from '../vocabulary/jsonEqual.ts';
import { uncoveredRules, type PolicyRule } from './policyRules.ts';

// kube-apiserver reconciles its bootstrap roles and bindings at every start, additively: what an
// existing object lacks (labels, annotations, rules, aggregation selectors, subjects) is added and
// nothing is taken away, so a user's additions survive. An object annotated
// `rbac.authorization.kubernetes.io/autoupdate: "false"` is left alone.

export const AUTOUPDATE_ANNOTATION = 'rbac.authorization.kubernetes.io/autoupdate';

type Selector = unknown;
interface RoleFields {
  rules?: PolicyRule[];
  aggregationRule?: { clusterRoleSelectors?: Selector[] };
}
interface BindingFields {
  roleRef?: { apiGroup?: string; kind?: string; name?: string };
  subjects?: { kind?: string; apiGroup?: string; name?: string; namespace?: string }[];
}

export type Reconciled =
  | { action: 'none' }
  | { action: 'protected' }
  | { action: 'update'; object: KubeObject }
  /** A binding whose roleRef changed: roleRef is immutable, so it is deleted and created again. */
  | { action: 'recreate'; object: KubeObject };

function isProtected(existing: KubeObject): boolean {
  return existing.metadata.annotations?.[AUTOUPDATE_ANNOTATION] === 'false';
}

/** Expected labels and annotations under the existing ones (the existing value wins a clash). */
function mergeMeta(existing: KubeObject, expected: KubeObject, out: KubeObject): boolean {
  let changed = false;
  for (const field of ['labels', 'annotations'] as const) {
    const merged = { ...expected.metadata[field], ...existing.metadata[field] };
    if (!jsonEqual(merged, existing.metadata[field] ?? {})) {
      out.metadata[field] = merged;
      changed = true;
    }
  }
  return changed;
}

function decide(existing: KubeObject, out: KubeObject, changed: boolean): Reconciled {
  if (!changed) return { action: 'none' };
  return isProtected(existing) ? { action: 'protected' } : { action: 'update', object: out };
}

/** A (Cluster)Role: the rules and aggregation selectors it lacks are added. */
export function reconcileRole(existing: KubeObject, expected: KubeObject): Reconciled {
  const out = structuredClone(existing) as KubeObject & RoleFields;
  const want = expected as KubeObject & RoleFields;
  let changed = mergeMeta(existing, expected, out);
  const missing = uncoveredRules(out.rules ?? [], want.rules ?? []);
  if (missing.length) {
    out.rules = [...(out.rules ?? []), ...missing];
    changed = true;
  }
  if (!want.aggregationRule && out.aggregationRule) {
    delete out.aggregationRule;
    changed = true;
  } else if (want.aggregationRule) {
    const have = out.aggregationRule?.clusterRoleSelectors ?? [];
    const lacking = (want.aggregationRule.clusterRoleSelectors ?? []).filter((s) => !have.some((h) => jsonEqual(h, s)));
    if (lacking.length) {
      out.aggregationRule = { ...out.aggregationRule, clusterRoleSelectors: [...have, ...lacking] };
      changed = true;
    }
  }
  return decide(existing, out, changed);
}

const sameSubject = (a: NonNullable<BindingFields['subjects']>[number], b: NonNullable<BindingFields['subjects']>[number]): boolean =>
  a.kind === b.kind && (a.apiGroup ?? '') === (b.apiGroup ?? '') && a.name === b.name && (a.namespace ?? '') === (b.namespace ?? '');

/** A (Cluster)RoleBinding: the subjects it lacks are added; another roleRef means starting over. */
export function reconcileBinding(existing: KubeObject, expected: KubeObject): Reconciled {
  const out = structuredClone(existing) as KubeObject & BindingFields;
  const want = expected as KubeObject & BindingFields;
  if (!jsonEqual(out.roleRef, want.roleRef)) {
    return isProtected(existing) ? { action: 'protected' } : { action: 'recreate', object: structuredClone(expected) };
  }
  let changed = mergeMeta(existing, expected, out);
  const have = out.subjects ?? [];
  const lacking = (want.subjects ?? []).filter((s) => !have.some((h) => sameSubject(h, s)));
  if (lacking.length) {
    out.subjects = [...have, ...lacking];
    changed = true;
  }
  return decide(existing, out, changed);
}
