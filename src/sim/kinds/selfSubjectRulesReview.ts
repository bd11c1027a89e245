import type { KindModule } from './kindModule.ts';

// SelfSubjectRulesReview (authorization.k8s.io/v1): create-only, answered about the caller (what the caller may do in a namespace) by
// src/sim/server/accessReviews.ts, never stored.

export const selfSubjectRulesReviewKind: KindModule = {
  api: { group: 'authorization.k8s.io', version: 'v1', resource: 'selfsubjectrulesreviews', kind: 'SelfSubjectRulesReview', namespaced: false, virtual: true },
};
