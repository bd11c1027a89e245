// TokenReview: who a bearer token stands for, as the server itself would authenticate it — what
// webhook token authenticators, kube-rbac-proxy and controller-runtime's authorized metrics
// endpoint ask before serving a caller. Answered, never stored.
import type { ReviewServices } from './resourceRequest.ts';
import { isMap } from './accessReviews.ts';
import { DEFAULT_AUDIENCE } from './serviceAccountTokens.ts';
import { badRequest } from './status.ts';
import { userInfoJson } from '../vocabulary/userInfo.ts';

type Body = Record<string, unknown>;

export function tokenReview(review: Body, services: ReviewServices): Body {
  const spec = isMap(review.spec) ? review.spec : {};
  const token = typeof spec.token === 'string' ? spec.token : '';
  if (token === '') throw badRequest('token is required for TokenReview in authentication');
  const asked = Array.isArray(spec.audiences) ? spec.audiences.filter((a): a is string => typeof a === 'string') : [];
  const found = services.authenticateToken(token, asked.length ? asked : [DEFAULT_AUDIENCE]);
  const metadata = { creationTimestamp: null, ...(isMap(review.metadata) ? review.metadata : {}) };
  if (!found || !('user' in found)) {
    const error = found ? `[invalid bearer token, ${found.error}]` : 'invalid bearer token';
    return { ...review, metadata, spec, status: { user: {}, error } };
  }
  return { ...review, metadata, spec, status: { authenticated: true, user: userInfoJson(found.user), audiences: found.audiences } };
}
