import type { PolicyRule } from './policyRules.ts';

// Whether one set of RBAC rules covers another, by upstream's policy comparator
// (k8s.io/component-helpers/auth/rbac/validation): the rules to cover are broken down to single
// group, resource, verb and name (or URL and verb), and each piece must be covered by one rule.

const has = (set: readonly string[] | undefined, value: string): boolean => set?.includes(value) ?? false;
const hasAll = (set: readonly string[] | undefined, values: readonly string[] | undefined): boolean => (values ?? []).every((v) => has(set, v));

/** One rule per group × resource × verb (× name), and per URL × verb. */
export function breakdown(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs ?? []) {
        if (rule.resourceNames?.length) {
          for (const name of rule.resourceNames) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
        } else {
          out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        }
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) for (const verb of rule.verbs ?? []) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

function resourcesCover(owner: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  if (has(owner, '*') || hasAll(owner, wanted)) return true;
  return (wanted ?? []).every((path) => {
    if (has(owner, path)) return true;
    const slash = path.indexOf('/');
    return slash >= 0 && has(owner, `*/${path.slice(slash + 1)}`);
  });
}

function urlCovers(owner: string, path: string): boolean {
  return owner === path || (owner.endsWith('*') && path.startsWith(owner.replace(/\*+$/, '')));
}

export function ruleCovers(owner: PolicyRule, piece: PolicyRule): boolean {
  const verbs = has(owner.verbs, '*') || hasAll(owner.verbs, piece.verbs);
  const groups = has(owner.apiGroups, '*') || hasAll(owner.apiGroups, piece.apiGroups);
  const urls = (piece.nonResourceURLs ?? []).every((path) => (owner.nonResourceURLs ?? []).some((o) => urlCovers(o, path)));
  const names = piece.resourceNames?.length ? !owner.resourceNames?.length || hasAll(owner.resourceNames, piece.resourceNames) : !owner.resourceNames?.length;
  return verbs && groups && resourcesCover(owner.resources, piece.resources) && names && urls;
}

/** The pieces of `wanted` that no rule of `held` covers (none: held covers all of it). */
export function withoutCovered(held: readonly PolicyRule[], wanted: readonly PolicyRule[]): PolicyRule[] {
  return wanted.flatMap(breakdown).filter((piece) => !held.some((owner) => ruleCovers(owner, piece)));
}
