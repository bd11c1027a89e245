import type { NonResourceAttributes, RequestAttributes, ResourceAttributes } from './requestAttributes.ts';

// Whether one RBAC PolicyRule allows a request, by kube-apiserver's matching rules
// (plugin/pkg/auth/authorizer/rbac): `*` matches anything, `*/scale` any resource's scale
// subresource, resourceNames narrow to names, and a nonResourceURL ending in `*` is a prefix.

export interface PolicyRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

const has = (list: readonly string[] | undefined, value: string): boolean => list?.includes(value) ?? false;
const matchesAll = (list: readonly string[] | undefined, value: string): boolean => has(list, '*') || has(list, value);

function resourceMatches(rule: PolicyRule, a: ResourceAttributes): boolean {
  const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  for (const resource of rule.resources ?? []) {
    if (resource === '*' || resource === combined) return true;
    if (a.subresource && resource === `*/${a.subresource}`) return true;
  }
  return false;
}

function nonResourceURLMatches(rule: PolicyRule, a: NonResourceAttributes): boolean {
  for (const url of rule.nonResourceURLs ?? []) {
    if (url === '*' || url === a.path) return true;
    if (url.endsWith('*') && a.path.startsWith(url.slice(0, -1))) return true;
  }
  return false;
}

export function ruleAllows(a: RequestAttributes, rule: PolicyRule): boolean {
  if (!matchesAll(rule.verbs, a.verb)) return false;
  if (!a.resourceRequest) return nonResourceURLMatches(rule, a);
  return matchesAll(rule.apiGroups, a.apiGroup) && resourceMatches(rule, a) && (!rule.resourceNames?.length || rule.resourceNames.includes(a.name));
}
