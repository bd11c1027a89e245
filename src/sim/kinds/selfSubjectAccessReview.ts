import type { KindModule } from './kindModule.ts';

// SelfSubjectAccessReview (authorization.k8s.io/v1): create-only, answered about the caller (whether the caller may do one thing) by
// src/sim/server/accessReviews.ts, never stored.

export const selfSubjectAccessReviewKind: KindModule = {
  api: { group: 'authorization.k8s.io', version: 'v1', resource: 'selfsubjectaccessreviews', kind: 'SelfSubjectAccessReview', namespaced: false, virtual: true },
};
