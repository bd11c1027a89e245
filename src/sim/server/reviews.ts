// The create-only reviews, answered by the server and never stored (no resourceVersion, no watch
// event): access and rules reviews (accessReviews.ts), TokenReviews (tokenReviews.ts) and
// SelfSubjectReview (`kubectl auth whoami`), here.
import { apiVersionOf } from '../../shared/k8s.ts';
import type { ResourceInfo } from '../vocabulary/resourceInfo.ts';
import { RbacAuthorizer } from '../auth/rbacAuthorizer.ts';
import { ADMIN_USER, userInfoJson, type UserInfo } from '../vocabulary/userInfo.ts';
import { timestamp } from '../vocabulary/objectMeta.ts';
import { selfAccessReview, selfRulesReview, subjectAccessReview } from './accessReviews.ts';
import type { ResourceRequest, ReviewServices } from './resourceRequest.ts';
import { badRequest } from './status.ts';
import { tokenReview } from './tokenReviews.ts';

type Body = Record<string, unknown>;

/** SelfSubjectReview: who the caller is. */
function subjectReview(body: Body, user: UserInfo, now: number): Body {
  return { kind: body.kind, apiVersion: body.apiVersion, metadata: { creationTimestamp: timestamp(now) }, status: { userInfo: userInfoJson(user) } };
}

/** Without the HTTP server's services (in-process callers), reviews see the cluster's own RBAC and no tokens. */
function servicesOf(r: ResourceRequest): ReviewServices {
  return r.authentication ?? { authorizer: new RbacAuthorizer(r.cluster), authenticateToken: () => undefined };
}

/** The answer (sent as 201 Created) to a review POSTed to `info`'s collection; throws ApiErrors for bad bodies. */
export function answerReview(info: ResourceInfo, body: Body, r: ResourceRequest): Body {
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
  const caller = r.ctx.user ?? ADMIN_USER;
  const services = servicesOf(r);
  switch (`${info.group}/${info.resource}`) {
    case 'authorization.k8s.io/selfsubjectaccessreviews':
      return selfAccessReview(info, review, caller, services.authorizer);
    case 'authorization.k8s.io/selfsubjectrulesreviews':
      return selfRulesReview(review, caller, services.authorizer);
    case 'authorization.k8s.io/subjectaccessreviews':
    case 'authorization.k8s.io/localsubjectaccessreviews':
      return subjectAccessReview(info, review, r.target.namespace, services.authorizer);
    case 'authentication.k8s.io/selfsubjectreviews':
      return subjectReview(review, caller, r.cluster.clock.now());
    case 'authentication.k8s.io/tokenreviews':
      return tokenReview(review, services);
    default:
      throw badRequest(`${info.kind} is not a review this server answers`);
  }
}
