import type { GroupVersionResource, KubeObject } from '../../shared/k8s.ts';
import type { SimObjects } from '../simObjects.ts';
import { ruleAllows, type PolicyRule } from './policyRules.ts';
import type { AuthorizationRequest } from './requestAttributes.ts';
import { isPrivileged, serviceAccountOf, type UserInfo } from '../vocabulary/userInfo.ts';

// kube-apiserver's authorizer as a cluster with `--authorization-mode=RBAC` runs it: members of
// system:masters may do anything, everyone else what the stored ClusterRoleBindings and the
// RoleBindings of the request's namespace grant, read from the cluster at each question so a
// binding applied a moment ago counts at once. Reasons and errors are worded as upstream words them.

const RBAC = 'rbac.authorization.k8s.io';
const gvr = (resource: string): GroupVersionResource => ({ group: RBAC, version: 'v1', resource });
const CLUSTER_ROLE_BINDINGS = gvr('clusterrolebindings');
const ROLE_BINDINGS = gvr('rolebindings');
const CLUSTER_ROLES = gvr('clusterroles');
const ROLES = gvr('roles');

interface Subject {
  kind?: string;
  name?: string;
  namespace?: string;
}

interface Binding extends KubeObject {
  subjects?: Subject[];
  roleRef?: { kind?: string; name?: string };
}

export interface Decision {
  allowed: boolean;
  /** Why it was allowed (`RBAC: allowed by …`), or the bindings that could not be read; '' when nothing to say. */
  reason: string;
}

export interface UserRules {
  rules: PolicyRule[];
  /** What could not be resolved (a binding to a missing role), '' when all was. */
  evaluationError: string;
}

/** One binding's rules, or why they could not be read, with the words a decision uses for it. */
interface Grant {
  rules: PolicyRule[];
  error?: string;
  describe(): string;
}

function appliesToUser(user: UserInfo, subject: Subject, namespace: string): boolean {
  switch (subject.kind) {
    case 'User':
      return user.username === subject.name;
    case 'Group':
      return user.groups.includes(subject.name ?? '');
    case 'ServiceAccount': {
      // A RoleBinding may leave its ServiceAccount subjects' namespace to be its own.
      const saNamespace = subject.namespace || namespace;
      if (!saNamespace) return false;
      const sa = serviceAccountOf(user.username);
      return sa?.namespace === saNamespace && sa.name === subject.name;
    }
    default:
      return false;
  }
}

function describeSubject(subject: Subject, bindingNamespace: string): string {
  if (subject.kind === 'ServiceAccount') return `${subject.kind} "${subject.name}/${subject.namespace || bindingNamespace}"`;
  return `${subject.kind} "${subject.name}"`;
}

/** Go's aggregate error text: one message alone, several (each once) in brackets. */
function aggregate(errors: string[]): string {
  const unique = [...new Set(errors)];
  if (errors.length === 1 || unique.length === 1) return unique[0] ?? '';
  return `[${unique.join(', ')}]`;
}

export class RbacAuthorizer {
  private readonly cluster: SimObjects;

  constructor(cluster: SimObjects) {
    this.cluster = cluster;
  }

  authorize({ user, attributes }: AuthorizationRequest): Decision {
    if (isPrivileged(user)) return { allowed: true, reason: '' };
    const errors: string[] = [];
    for (const grant of this.grants(user, attributes.resourceRequest ? attributes.namespace : '')) {
      if (grant.error !== undefined) {
        errors.push(grant.error);
        continue;
      }
      if (grant.rules.some((rule) => ruleAllows(attributes, rule))) return { allowed: true, reason: `RBAC: allowed by ${grant.describe()}` };
    }
    return { allowed: false, reason: errors.length ? `RBAC: ${aggregate(errors)}` : '' };
  }

  /** Every rule the user's bindings grant in a namespace ('' for the cluster-wide ones only), as rules reviews list them. */
  rulesFor(user: UserInfo, namespace: string): UserRules {
    const rules: PolicyRule[] = [];
    const errors: string[] = [];
    for (const grant of this.grants(user, namespace)) {
      if (grant.error !== undefined) errors.push(grant.error);
      else rules.push(...grant.rules);
    }
    return { rules, evaluationError: errors.length ? aggregate(errors) : '' };
  }

  /** The bindings that apply to the user, cluster-wide ones first, in the order kube-apiserver visits them. */
  private *grants(user: UserInfo, namespace: string): Generator<Grant> {
    for (const binding of this.bindings(CLUSTER_ROLE_BINDINGS, '')) {
      const subject = binding.subjects?.find((s) => appliesToUser(user, s, ''));
      if (!subject) continue;
      yield this.grant(binding, '', () => `ClusterRoleBinding "${binding.metadata.name}" of ${binding.roleRef?.kind} "${binding.roleRef?.name}" to ${describeSubject(subject, '')}`);
    }
    if (!namespace) return;
    for (const binding of this.bindings(ROLE_BINDINGS, namespace)) {
      const subject = binding.subjects?.find((s) => appliesToUser(user, s, namespace));
      if (!subject) continue;
      yield this.grant(binding, namespace, () => `RoleBinding "${binding.metadata.name}/${namespace}" of ${binding.roleRef?.kind} "${binding.roleRef?.name}" to ${describeSubject(subject, namespace)}`);
    }
  }

  private grant(binding: Binding, namespace: string, describe: () => string): Grant {
    const found = this.roleReferenceRules(binding.roleRef ?? {}, namespace);
    return 'error' in found ? { rules: [], error: found.error, describe } : { rules: found.rules, describe };
  }

  /** The rules a binding's roleRef names (a Role in the binding's namespace, or a ClusterRole), or why there are none. */
  roleReferenceRules(roleRef: { kind?: string; name?: string }, namespace: string): { rules: PolicyRule[] } | { error: string } {
    const { kind = '', name = '' } = roleRef;
    if (kind !== 'Role' && kind !== 'ClusterRole') return { error: `unsupported role reference kind: "${kind}"` };
    try {
      const role = this.cluster.get(kind === 'Role' ? ROLES : CLUSTER_ROLES, kind === 'Role' ? namespace : '', name).object as { rules?: PolicyRule[] };
      return { rules: role.rules ?? [] };
    } catch {
      return { error: `${kind.toLowerCase()}.${RBAC} "${name}" not found` };
    }
  }

  private bindings(resource: GroupVersionResource, namespace: string): Binding[] {
    return this.cluster.list(resource, { namespace }).items.map((item) => item.object as Binding);
  }
}
