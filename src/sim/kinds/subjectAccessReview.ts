import type { KindModule } from './kindModule.ts';

// SubjectAccessReview (authorization.k8s.io/v1): create-only, answered about any user (whether
// that user may do one thing) by src/sim/server/accessReviews.ts, never stored.

export const subjectAccessReviewKind: KindModule = {
  api: { group: 'authorization.k8s.io', version: 'v1', resource: 'subjectaccessreviews', kind: 'SubjectAccessReview', namespaced: false, virtual: true },
};
