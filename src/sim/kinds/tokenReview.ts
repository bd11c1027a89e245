import type { KindModule } from './kindModule.ts';

// TokenReview (authentication.k8s.io/v1): create-only, answered with who a token stands for by
// src/sim/server/tokenReviews.ts, never stored.

export const tokenReviewKind: KindModule = {
  api: { group: 'authentication.k8s.io', version: 'v1', resource: 'tokenreviews', kind: 'TokenReview', namespaced: false, virtual: true },
};
