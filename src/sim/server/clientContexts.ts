import type { RequestContext } from '../store/types.ts';
import { ADMIN_USER, type UserInfo } from '../vocabulary/userInfo.ts';

// One request context per client — its user agent, and who it acts as — so client insight counts
// a client's requests together. At most MAX_CLIENTS are kept: past that a
// new client gets a context of its own each time (made-up user agents cannot grow the map).

const MAX_CLIENTS = 1000;

export class ClientContexts {
  private readonly contexts = new Map<string, RequestContext>();
  private readonly tokenId: string;

  /** `tokenId`: the short hash of the server token that client insight records. */
  constructor(tokenId: string) {
    this.tokenId = tokenId;
  }

  contextFor(userAgent: string, user: UserInfo): RequestContext {
    const admin = user === ADMIN_USER;
    const key = admin ? userAgent : `${userAgent}\n${user.username}`;
    let ctx = this.contexts.get(key);
    if (!ctx) {
      ctx = admin ? { client: { userAgent, tokenId: this.tokenId }, user } : { client: { userAgent, tokenId: this.tokenId, user: user.username } };
      if (this.contexts.size < MAX_CLIENTS) this.contexts.set(key, ctx);
    }
    // The request's own user: a bound token's Pod, an impersonated uid or extras may differ per request.
    // (Every request names its user, the admin too: watch faults and write records go by it.)
    return admin ? ctx : { ...ctx, user };
  }
}
