// The create-only reviews `kubectl auth can-i` and `kubectl auth whoami` send. The server answers
// them about the caller and stores nothing (no resourceVersion, no watch event). The sim has one
// caller, the holder of its token, and lets it do everything — so every access review is allowed,
// as a real server allows system:masters.
import { apiVersionOf } from '../../shared/k8s.ts';
import type { ResourceInfo } from '../resources/types.ts';
import { invalid, type Cause } from '../../shared/apiErrors.ts';
import { timestamp } from '../store/objectMeta.ts';
import { TOKEN_USER } from './bearerAuth.ts';
import { badRequest } from './status.ts';

type Body = Record<string, unknown>;

const isMap = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What `kubectl auth can-i --list` prints as "everything": any verb on any resource and URL. */
const ALLOW_EVERYTHING = {
  resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
  incomplete: false,
};

/** SelfSubjectAccessReview: exactly one of resourceAttributes / nonResourceAttributes, then allowed. */
function accessReview(info: ResourceInfo, body: Body): Body {
  const spec = isMap(body.spec) ? body.spec : {};
  const causes: Cause[] = [];
  if (spec.resourceAttributes != null && spec.nonResourceAttributes != null) {
    causes.push({ reason: 'FieldValueInvalid', field: 'spec.nonResourceAttributes', message: `Invalid value: ${JSON.stringify(spec.nonResourceAttributes)}: cannot be specified in combination with resourceAttributes` });
  } else if (spec.resourceAttributes == null && spec.nonResourceAttributes == null) {
    causes.push({ reason: 'FieldValueInvalid', field: 'spec.resourceAttributes', message: 'Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified' });
  }
  if (causes.length) throw invalid(info.group, info.kind, '', causes);
  // The submitted review comes back with its status filled in.
  return { ...body, metadata: { creationTimestamp: null, ...(isMap(body.metadata) ? body.metadata : {}) }, spec, status: { allowed: true } };
}

/** SelfSubjectRulesReview: the rules in one namespace; like the real server, the spec is not echoed. */
function rulesReview(body: Body): Body {
  const namespace = isMap(body.spec) ? body.spec.namespace : undefined;
  if (typeof namespace !== 'string' || namespace === '') throw badRequest('no namespace on request');
  return { kind: body.kind, apiVersion: body.apiVersion, metadata: { creationTimestamp: null }, spec: {}, status: ALLOW_EVERYTHING };
}

/** SelfSubjectReview: who the caller is (`kubectl auth whoami`). */
function subjectReview(body: Body, now: number): Body {
  return { kind: body.kind, apiVersion: body.apiVersion, metadata: { creationTimestamp: timestamp(now) }, status: { userInfo: { username: TOKEN_USER.username, groups: [...TOKEN_USER.groups] } } };
}

/** The answer (sent as 201 Created) to a review POSTed to `info`'s collection; throws ApiErrors for bad bodies. */
export function answerReview(info: ResourceInfo, body: Body, now: number): Body {
  const expected = apiVersionOf(info);
  if (body.apiVersion && body.apiVersion !== expected) {
    throw badRequest(`the API version in the data (${String(body.apiVersion)}) does not match the expected API version (${expected})`);
  }
  if (body.kind && body.kind !== info.kind) {
    throw badRequest(`the kind in the data (${String(body.kind)}) does not match the expected kind (${info.kind})`);
  }
  // kind and apiVersion first, as the server writes them (the body may leave them out or empty).
  const review: Body = { kind: info.kind, apiVersion: expected, ...body };
  review.kind = info.kind;
  review.apiVersion = expected;
  switch (`${info.group}/${info.resource}`) {
    case 'authorization.k8s.io/selfsubjectaccessreviews':
      return accessReview(info, review);
    case 'authorization.k8s.io/selfsubjectrulesreviews':
      return rulesReview(review);
    case 'authentication.k8s.io/selfsubjectreviews':
      return subjectReview(review, now);
    default:
      throw badRequest(`${info.kind} is not a review this server answers`);
  }
}
