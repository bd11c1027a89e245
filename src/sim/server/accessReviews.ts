// The access reviews: SelfSubjectAccessReview (`kubectl auth can-i`) and SelfSubjectRulesReview
// (`can-i --list`) about the caller, SubjectAccessReview and LocalSubjectAccessReview about any
// user (what kube-rbac-proxy and controller-runtime's authorized metrics endpoint ask). Each is
// answered by the server's authorizer, as kube-apiserver answers them, and never stored.
import { invalid, type Cause } from '../../shared/apiErrors.ts';
import type { ResourceInfo } from '../vocabulary/resourceInfo.ts';
import type { RbacAuthorizer } from '../auth/rbacAuthorizer.ts';
import type { RequestAttributes } from '../auth/requestAttributes.ts';
import type { UserInfo } from '../vocabulary/userInfo.ts';
import { badRequest } from './status.ts';

type Body = Record<string, unknown>;

export const isMap = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const texts = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

/** The spec's question as authorizer attributes (an empty version matches any, as upstream's `*`). */
function attributesOf(spec: Body): RequestAttributes {
  if (isMap(spec.nonResourceAttributes)) {
    return { resourceRequest: false, verb: text(spec.nonResourceAttributes.verb), path: text(spec.nonResourceAttributes.path) };
  }
  const r = isMap(spec.resourceAttributes) ? spec.resourceAttributes : {};
  return {
    resourceRequest: true,
    verb: text(r.verb),
    apiGroup: text(r.group),
    apiVersion: text(r.version) || '*',
    resource: text(r.resource),
    subresource: text(r.subresource),
    name: text(r.name),
    namespace: text(r.namespace),
  };
}

/** A NonResourceAttributes as Go's `%#v` prints the internal type in validation messages. */
function goNonResourceAttributes(v: unknown): string {
  const a = isMap(v) ? v : {};
  return `authorization.NonResourceAttributes{Path:${JSON.stringify(text(a.path))}, Verb:${JSON.stringify(text(a.verb))}}`;
}

/**
 * The review is invalid: kube-apiserver names no kind in the error (the decoded internal object's
 * kind is empty), so the message starts `.authorization.k8s.io "" is invalid`.
 */
const invalidReview = (info: ResourceInfo, causes: Cause[]) => invalid(info.group, '', '', causes);

function exactlyOneQuestion(spec: Body): Cause[] {
  if (spec.resourceAttributes != null && spec.nonResourceAttributes != null) {
    return [{ reason: 'FieldValueInvalid', field: 'spec.nonResourceAttributes', message: `Invalid value: ${goNonResourceAttributes(spec.nonResourceAttributes)}: cannot be specified in combination with resourceAttributes` }];
  }
  if (spec.resourceAttributes == null && spec.nonResourceAttributes == null) {
    return [{ reason: 'FieldValueInvalid', field: 'spec.resourceAttributes', message: 'Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified' }];
  }
  return [];
}

/** The user a SubjectAccessReview asks about; one of user or groups must be given. */
function subjectOf(spec: Body): UserInfo {
  const extra: Record<string, string[]> = {};
  if (isMap(spec.extra)) for (const [key, values] of Object.entries(spec.extra)) extra[key] = texts(values);
  return { username: text(spec.user), ...(text(spec.uid) ? { uid: text(spec.uid) } : {}), groups: texts(spec.groups), ...(Object.keys(extra).length ? { extra } : {}) };
}

/** The review with its status, as the server answers every access review. */
function answered(review: Body, spec: Body, user: UserInfo, authorizer: RbacAuthorizer): Body {
  const decision = authorizer.authorize({ user, attributes: attributesOf(spec) });
  const status = { allowed: decision.allowed, ...(decision.reason ? { reason: decision.reason } : {}) };
  return { ...review, metadata: { creationTimestamp: null, ...(isMap(review.metadata) ? review.metadata : {}) }, spec, status };
}

/** SelfSubjectAccessReview: may the caller do one thing? */
export function selfAccessReview(info: ResourceInfo, review: Body, caller: UserInfo, authorizer: RbacAuthorizer): Body {
  const spec = isMap(review.spec) ? review.spec : {};
  const causes = exactlyOneQuestion(spec);
  if (causes.length) throw invalidReview(info, causes);
  return answered(review, spec, caller, authorizer);
}

/** SubjectAccessReview (cluster-wide) or LocalSubjectAccessReview (in the namespace of its path): may this user do one thing? */
export function subjectAccessReview(info: ResourceInfo, review: Body, pathNamespace: string, authorizer: RbacAuthorizer): Body {
  const spec = isMap(review.spec) ? review.spec : {};
  const causes = exactlyOneQuestion(spec);
  const user = subjectOf(spec);
  if (user.username === '' && user.groups.length === 0) {
    causes.push({ reason: 'FieldValueInvalid', field: 'spec.user', message: 'Invalid value: "": at least one of user or group must be specified' });
  }
  if (info.namespaced) {
    const metadata = isMap(review.metadata) ? review.metadata : {};
    const namespace = text(metadata.namespace) || pathNamespace;
    review = { ...review, metadata: { ...metadata, namespace } };
    if (isMap(spec.resourceAttributes) && text(spec.resourceAttributes.namespace) !== namespace) {
      causes.push({ reason: 'FieldValueInvalid', field: 'spec.resourceAttributes.namespace', message: `Invalid value: ${JSON.stringify(text(spec.resourceAttributes.namespace))}: must match metadata.namespace` });
    }
    if (spec.nonResourceAttributes != null && spec.resourceAttributes == null) {
      causes.push({ reason: 'FieldValueInvalid', field: 'spec.nonResourceAttributes', message: `Invalid value: ${goNonResourceAttributes(spec.nonResourceAttributes)}: disallowed on this kind of request` });
    }
    if (causes.length) throw invalidReview(info, causes);
    if (namespace !== pathNamespace) throw badRequest(`spec.resourceAttributes.namespace must match namespace: ${pathNamespace}`);
  } else if (causes.length) {
    throw invalidReview(info, causes);
  }
  return answered(review, spec, user, authorizer);
}

/** SelfSubjectRulesReview: what the caller may do in one namespace; like the real server, the spec is not echoed. */
export function selfRulesReview(review: Body, caller: UserInfo, authorizer: RbacAuthorizer): Body {
  const namespace = isMap(review.spec) ? review.spec.namespace : undefined;
  if (typeof namespace !== 'string' || namespace === '') throw badRequest('no namespace on request');
  const { rules, evaluationError } = authorizer.rulesFor(caller, namespace);
  const resourceRules = rules
    .filter((r) => r.resources?.length)
    .map((r) => ({ verbs: r.verbs ?? [], ...(r.apiGroups?.length ? { apiGroups: r.apiGroups } : {}), resources: r.resources, ...(r.resourceNames?.length ? { resourceNames: r.resourceNames } : {}) }));
  const nonResourceRules = rules.filter((r) => r.nonResourceURLs?.length).map((r) => ({ verbs: r.verbs ?? [], nonResourceURLs: r.nonResourceURLs }));
  return {
    kind: review.kind,
    apiVersion: review.apiVersion,
    metadata: { creationTimestamp: null },
    spec: {},
    status: { resourceRules, nonResourceRules, incomplete: false, ...(evaluationError ? { evaluationError } : {}) },
  };
}
