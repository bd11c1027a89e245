import { notFound } from '../../shared/apiErrors.ts';
import { goQuotedStrings } from '../vocabulary/goValues.ts';
import type { KubeObject } from '../../shared/k8s.ts';
import { forbiddenBecause } from './forbidden.ts';
import type { PolicyRule } from './policyRules.ts';
import type { RbacAuthorizer } from './rbacAuthorizer.ts';
import type { ResourceAttributes } from './requestAttributes.ts';
import { withoutCovered } from './ruleCoverage.ts';
import { isPrivileged, type UserInfo } from '../vocabulary/userInfo.ts';

// RBAC's escalation prevention, as kube-apiserver's RBAC storage enforces it: a user may write a
// Role or ClusterRole only with rules it holds itself (or the `escalate` verb on it), and bind a
// role only if it holds the role's rules (or the `bind` verb on it). What operators that create
// RBAC for their workloads meet on real clusters: "is attempting to grant RBAC permissions not
// currently held". Members of system:masters are exempt.

const RBAC = 'rbac.authorization.k8s.io';

/** * on everything: what setting an aggregationRule takes, since it can gather any rule. */
const FULL_AUTHORITY: PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

interface RoleObject extends KubeObject {
  rules?: PolicyRule[];
  aggregationRule?: { clusterRoleSelectors?: unknown[] };
}

interface BindingObject extends KubeObject {
  roleRef?: { apiGroup?: string; kind?: string; name?: string };
}

export interface EscalationCheck {
  authorizer: RbacAuthorizer;
  user: UserInfo;
  /** `roles`, `clusterroles`, `rolebindings` or `clusterrolebindings`. */
  resource: string;
  /** The request's namespace ('' for the cluster-scoped kinds) and name ('' on a create). */
  namespace: string;
  name: string;
}


/** A rule as upstream's CompactString prints it: `{APIGroups:[""], Resources:["pods"], Verbs:["get"]}`. */
function compactString(rule: PolicyRule): string {
  const parts: string[] = [];
  if (rule.apiGroups?.length) parts.push(`APIGroups:${goQuotedStrings(rule.apiGroups)}`);
  if (rule.resources?.length) parts.push(`Resources:${goQuotedStrings(rule.resources)}`);
  if (rule.nonResourceURLs?.length) parts.push(`NonResourceURLs:${goQuotedStrings(rule.nonResourceURLs)}`);
  if (rule.resourceNames?.length) parts.push(`ResourceNames:${goQuotedStrings(rule.resourceNames)}`);
  if (rule.verbs?.length) parts.push(`Verbs:${goQuotedStrings(rule.verbs)}`);
  return `{${parts.join(', ')}}`;
}

/** Upstream's CompactRules: rules for one group, resource and at most one name merge their verbs. */
function compactRules(rules: PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const isSimple = (rule.resourceNames?.length ?? 0) <= 1 && !rule.nonResourceURLs?.length && rule.apiGroups?.length === 1 && rule.resources?.length === 1;
    if (!isSimple) {
      out.push(rule);
      continue;
    }
    const key = JSON.stringify([rule.apiGroups, rule.resources, rule.resourceNames ?? null]);
    const merged = simple.get(key);
    if (merged) merged.verbs = [...(merged.verbs ?? []), ...(rule.verbs ?? [])];
    else simple.set(key, { ...rule, verbs: [...(rule.verbs ?? [])] });
  }
  return [...out, ...simple.values()];
}

export class RbacEscalation {
  private readonly check: EscalationCheck;

  constructor(check: EscalationCheck) {
    this.check = check;
  }

  /** Whether writes to this resource by this user are checked at all. */
  static applies(user: UserInfo, group: string, resource: string): boolean {
    return group === RBAC && ['roles', 'clusterroles', 'rolebindings', 'clusterrolebindings'].includes(resource) && !isPrivileged(user);
  }

  /** Throws the 403 kube-apiserver answers when `obj` (replacing `old`) grants what the user does not hold. */
  confirm(obj: Readonly<KubeObject>, old: Readonly<KubeObject> | undefined): void {
    if (old && onlyGarbageCollectionFieldsChanged(obj, old)) return;
    if (this.check.resource.endsWith('bindings')) this.confirmBinding(obj as BindingObject);
    else this.confirmRole(obj as RoleObject, old as RoleObject | undefined);
  }

  private confirmRole(role: RoleObject, old: RoleObject | undefined): void {
    const { resource, namespace, name } = this.check;
    if (this.allowedTo('escalate', { apiGroup: RBAC, resource, name, namespace })) return;
    this.confirmHeld(role, role.rules ?? []);
    const aggregates = (r: RoleObject | undefined) => (r?.aggregationRule?.clusterRoleSelectors?.length ?? 0) > 0;
    if ((aggregates(role) || aggregates(old)) && this.missing(FULL_AUTHORITY).rules.length) {
      throw this.forbidden(role, 'must have cluster-admin privileges to use the aggregationRule');
    }
  }

  private confirmBinding(binding: BindingObject): void {
    const { namespace } = this.check;
    const { apiGroup = '', kind = '', name = '' } = binding.roleRef ?? {};
    const roleResource = kind === 'ClusterRole' ? 'clusterroles' : kind === 'Role' ? 'roles' : '';
    if (roleResource && this.allowedTo('bind', { apiGroup, resource: roleResource, name, namespace })) return;
    const referenced = this.check.authorizer.roleReferenceRules(binding.roleRef ?? {}, namespace);
    // kube-apiserver answers the role's own NotFound here, from its storage.
    if ('error' in referenced) throw roleResource ? notFound(RBAC, roleResource, name) : this.forbidden(binding, referenced.error);
    this.confirmHeld(binding, referenced.rules);
  }

  private allowedTo(verb: 'escalate' | 'bind', on: Pick<ResourceAttributes, 'apiGroup' | 'resource' | 'name' | 'namespace'>): boolean {
    const attributes: ResourceAttributes = { resourceRequest: true, verb, apiVersion: '*', subresource: '', ...on };
    return this.check.authorizer.authorize({ user: this.check.user, attributes }).allowed;
  }

  private missing(rules: PolicyRule[]): { rules: PolicyRule[]; evaluationError: string } {
    const held = this.check.authorizer.rulesFor(this.check.user, this.check.namespace);
    return { rules: withoutCovered(held.rules, rules), evaluationError: held.evaluationError };
  }

  private confirmHeld(obj: KubeObject, rules: PolicyRule[]): void {
    const missing = this.missing(rules);
    if (missing.rules.length === 0) return;
    const { user } = this.check;
    const described = [...new Set(compactRules(missing.rules).map(compactString))].sort();
    let why = `user ${JSON.stringify(user.username)} (groups=${goQuotedStrings(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${described.join('\n')}`;
    if (missing.evaluationError) why += `; resolution errors: [${missing.evaluationError}]`;
    throw this.forbidden(obj, why);
  }

  private forbidden(obj: Readonly<KubeObject>, why: string) {
    return forbiddenBecause(RBAC, this.check.resource, obj.metadata.name ?? this.check.name, why);
  }
}

/** Upstream's IsOnlyMutatingGCFields: owner references and finalizers may change without the check. */
function onlyGarbageCollectionFieldsChanged(obj: Readonly<KubeObject>, old: Readonly<KubeObject>): boolean {
  const comparable = (o: Readonly<KubeObject>) => {
    const { ownerReferences: _o, finalizers: _f, managedFields: _m, resourceVersion: _r, generation: _g, ...metadata } = o.metadata;
    return canonical({ ...o, metadata });
  };
  return comparable(obj) === comparable(old);
}

/** JSON with every object's keys sorted: equal values give equal text whatever order they were written in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
