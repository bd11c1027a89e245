import type { KindModule } from './kindModule.ts';

// SelfSubjectReview (authentication.k8s.io/v1): create-only, answered about the caller (who the caller is) by
// src/sim/server/reviews.ts, never stored.

export const selfSubjectReviewKind: KindModule = {
  api: { group: 'authentication.k8s.io', version: 'v1', resource: 'selfsubjectreviews', kind: 'SelfSubjectReview', namespaced: false, virtual: true },
};
