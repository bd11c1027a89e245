import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SimClusterApi } from '../simCluster.ts';
import type { RequestContext } from '../store/types.ts';
import type { Seat } from './inFlightLimit.ts';
import type { QueryParameters } from './queryParameters.ts';
import type { ResourceTarget } from './requestPath.ts';
import type { ServiceAccountTokens, TokenAuthentication, TokenRejection } from './serviceAccountTokens.ts';
import type { RbacAuthorizer } from '../auth/rbacAuthorizer.ts';

// One request for a resource, as the resource handler and the subresource handlers it hands off to
// see it (its own file so those handlers need nothing from the handler that calls them).

export interface ResourceRequest {
  cluster: SimClusterApi;
  target: ResourceTarget;
  query: QueryParameters;
  ctx: RequestContext;
  req: IncomingMessage;
  res: ServerResponse;
  /** The request's share of the in-flight limit (none for exempt requests). */
  seat?: Seat;
  /** Issues the tokens serviceaccounts/token answers with. */
  tokens?: ServiceAccountTokens;
  /** What token and access reviews ask (absent: reviews answer as for the admin). */
  authentication?: ReviewServices;
}

/** The server's authenticator and authorizer, as TokenReviews and access reviews ask them. */
export interface ReviewServices {
  authorizer: RbacAuthorizer;
  /** Who a token stands for, for which of the audiences asked; a rejection or undefined when it authenticates for none. */
  authenticateToken(token: string, audiences: readonly string[]): TokenAuthentication | TokenRejection | undefined;
}
