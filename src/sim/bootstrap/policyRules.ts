// Whether one set of RBAC rules grants everything another does, as kube-apiserver's bootstrap
// reconciliation decides it (component-helpers auth/rbac/validation Covers): every rule is broken
// down into single (group, resource, verb, resourceName) grants, or (URL, verb) for non-resource
// URLs, and each must be allowed by one rule of the owner. `*` matches anything; `*/status` any
// resource's status; a URL ending in `*` every URL with that prefix.

export interface PolicyRule {
  apiGroups?: string[];
  resources?: string[];
  verbs?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

const ALL = '*';

/** The single grants of `rule`, each a rule with one of everything. */
export function breakDown(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  const verbs = rule.verbs ?? [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of verbs) {
        if (rule.resourceNames?.length) {
          for (const name of rule.resourceNames) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
        } else {
          out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        }
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) for (const verb of verbs) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

const has = (set: string[] | undefined, value: string): boolean => set?.includes(value) ?? false;
const hasAll = (set: string[] | undefined, values: string[] | undefined): boolean => (values ?? []).every((v) => has(set, v));

function resourcesCovered(owner: string[] | undefined, wanted: string[] | undefined): boolean {
  if (has(owner, ALL)) return true;
  return (wanted ?? []).every((r) => has(owner, r) || (r.includes('/') && has(owner, `*/${r.slice(r.indexOf('/') + 1)}`)));
}

function urlsCovered(owner: string[] | undefined, wanted: string[] | undefined): boolean {
  return (wanted ?? []).every((url) => (owner ?? []).some((o) => o === url || (o.endsWith('*') && url.startsWith(o.replace(/\*+$/, '')))));
}

/** Whether `owner` allows `grant` (a single grant from breakDown). */
function ruleCovers(owner: PolicyRule, grant: PolicyRule): boolean {
  const names = grant.resourceNames?.length ? !owner.resourceNames?.length || hasAll(owner.resourceNames, grant.resourceNames) : !owner.resourceNames?.length;
  return (has(owner.verbs, ALL) || hasAll(owner.verbs, grant.verbs))
    && (has(owner.apiGroups, ALL) || hasAll(owner.apiGroups, grant.apiGroups))
    && resourcesCovered(owner.resources, grant.resources)
    && urlsCovered(owner.nonResourceURLs, grant.nonResourceURLs)
    && names;
}

/** The single grants of `wanted` that no rule of `owner` allows (empty: owner covers wanted). */
export function uncoveredRules(owner: PolicyRule[], wanted: PolicyRule[]): PolicyRule[] {
  return wanted.flatMap(breakDown).filter((grant) => !owner.some((o) => ruleCovers(o, grant)));
}
