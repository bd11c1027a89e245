import type { KubeObject } from '../../shared/k8s.ts';
import type { Cause } from '../../shared/apiErrors.ts';

// An RBAC role's rules, validated as ValidatePolicyRule does (rbac/validation): every rule needs
// verbs; a non-resource rule names no resources (and a namespaced Role has none); a resource rule
// names api groups and resources.

interface PolicyRule {
  verbs?: unknown[];
  apiGroups?: unknown[];
  resources?: unknown[];
  resourceNames?: unknown[];
  nonResourceURLs?: unknown[];
}

const count = (v: unknown[] | undefined) => (Array.isArray(v) ? v.length : 0);
const goStrings = (v: unknown[]) => `[]string{${v.map((s) => JSON.stringify(String(s))).join(', ')}}`;

export function policyRuleCauses(role: Readonly<KubeObject>, namespaced: boolean): Cause[] {
  const rules = (role as { rules?: unknown }).rules;
  if (!Array.isArray(rules)) return [];
  const causes: Cause[] = [];
  rules.forEach((raw, i) => {
    const rule = (raw ?? {}) as PolicyRule;
    const at = `rules[${i}]`;
    if (count(rule.verbs) === 0) causes.push({ reason: 'FieldValueRequired', field: `${at}.verbs`, message: 'Required value: verbs must contain at least one value' });
    if (count(rule.nonResourceURLs) > 0) {
      const urls = goStrings(rule.nonResourceURLs!);
      if (namespaced) causes.push({ reason: 'FieldValueInvalid', field: `${at}.nonResourceURLs`, message: `Invalid value: ${urls}: namespaced rules cannot apply to non-resource URLs` });
      if (count(rule.apiGroups) + count(rule.resources) + count(rule.resourceNames) > 0) {
        causes.push({ reason: 'FieldValueInvalid', field: `${at}.nonResourceURLs`, message: `Invalid value: ${urls}: rules cannot apply to both regular resources and non-resource URLs` });
      }
      return;
    }
    if (count(rule.apiGroups) === 0) causes.push({ reason: 'FieldValueRequired', field: `${at}.apiGroups`, message: 'Required value: resource rules must supply at least one api group' });
    if (count(rule.resources) === 0) causes.push({ reason: 'FieldValueRequired', field: `${at}.resources`, message: 'Required value: resource rules must supply at least one resource' });
  });
  return causes;
}
