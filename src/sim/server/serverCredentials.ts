import { join } from 'node:path';
import { RbacAuthorizer } from '../auth/rbacAuthorizer.ts';
import type { SimClusterApi } from '../simCluster.ts';
import { loadOrCreateToken, newToken, TOKEN_FILE } from '../tls/tokenFile.ts';
import { acceptLossHint } from '../vocabulary/stateLoss.ts';
import { ADMIN_USER } from '../vocabulary/userInfo.ts';
import { BearerAuth } from './bearerAuth.ts';
import { RequestAccess } from './requestAccess.ts';
import type { ReviewServices } from './resourceRequest.ts';
import { authenticateServiceAccountToken, DEFAULT_AUDIENCE, ServiceAccountTokens } from './serviceAccountTokens.ts';

// Who may ask the server what, made once per server: its own token (one cluster admin), the
// service account tokens it issues, and impersonation and authorization by the stored RBAC.

export interface ServerCredentials {
  /** The server's token and the tokens it accepts besides (the service account tokens it issued). */
  readonly auth: BearerAuth;
  /** Issues and verifies the service account tokens. */
  readonly tokens: ServiceAccountTokens;
  /** Impersonation and authorization, between authentication and serving. */
  readonly access: RequestAccess;
  /** What TokenReviews and access reviews ask. */
  readonly reviews: ReviewServices;
  /** The state dir's token file when it was kept from an earlier start (the CA was made after it). */
  readonly keptTokenFile?: string;
}

/**
 * The token is `token`, else the one kept in `stateDir` (made there on first start; a damaged one
 * replaced when the loss is accepted, the cluster saying it), else a new one.
 */
export async function serverCredentials(cluster: SimClusterApi, options: { token?: string; stateDir?: string; acceptStateLoss?: boolean }): Promise<ServerCredentials> {
  const kept = options.token === undefined && options.stateDir ? await loadOrCreateToken(options.stateDir, options.acceptStateLoss, acceptLossHint(options.stateDir)) : undefined;
  if (kept?.loss) cluster.stateLossAccepted(kept.loss);
  const serverToken = options.token ?? kept?.token ?? newToken();
  const tokens = new ServiceAccountTokens(serverToken, cluster.clock);
  const auth = new BearerAuth(serverToken, (presented) => {
    const found = authenticateServiceAccountToken(cluster, tokens, presented);
    return found && 'user' in found ? found.user : undefined;
  });
  const authorizer = new RbacAuthorizer(cluster);
  const reviews: ReviewServices = {
    authorizer,
    authenticateToken: (presented, audiences) => {
      if (auth.userFor(presented) === ADMIN_USER) {
        // The admin token is good for the API server's own audience only, as a static token is.
        return audiences.includes(DEFAULT_AUDIENCE) ? { user: ADMIN_USER, audiences: [DEFAULT_AUDIENCE] } : undefined;
      }
      return authenticateServiceAccountToken(cluster, tokens, presented, audiences);
    },
  };
  const keptTokenFile = kept && !kept.made && options.stateDir ? join(options.stateDir, TOKEN_FILE) : undefined;
  return { auth, tokens, access: new RequestAccess(authorizer), reviews, ...(keptTokenFile ? { keptTokenFile } : {}) };
}
