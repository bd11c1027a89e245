import type { KindModule } from './kindModule.ts';

// LocalSubjectAccessReview (authorization.k8s.io/v1): a SubjectAccessReview posted in a namespace
// and asking about it only, answered by src/sim/server/accessReviews.ts, never stored.

export const localSubjectAccessReviewKind: KindModule = {
  api: { group: 'authorization.k8s.io', version: 'v1', resource: 'localsubjectaccessreviews', kind: 'LocalSubjectAccessReview', namespaced: true, virtual: true },
};
