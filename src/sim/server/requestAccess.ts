import type { IncomingMessage } from 'node:http';
import { forbiddenError } from '../auth/forbidden.ts';
import { asksToImpersonate, impersonatedUser } from '../auth/impersonation.ts';
import type { RbacAuthorizer } from '../auth/rbacAuthorizer.ts';
import { requestAttributes } from '../auth/requestAttributes.ts';
import { ADMIN_USER, isPrivileged, type UserInfo } from '../vocabulary/userInfo.ts';

// The two steps between authentication and serving, in kube-apiserver's order: impersonation
// (who the request acts as) and authorization (whether that user may make it). The admin token
// without impersonation headers skips both: it may do anything, and most requests are its.

export class RequestAccess {
  private readonly authorizer: RbacAuthorizer;

  constructor(authorizer: RbacAuthorizer) {
    this.authorizer = authorizer;
  }

  /** The user the request acts as; throws the 403 (or ImpersonationHeadersError) when impersonation is refused. */
  actingUser(requester: UserInfo, req: IncomingMessage): UserInfo {
    if (!asksToImpersonate(req.headers)) return requester;
    return impersonatedUser(requester, distinctHeaders(req), this.authorizer);
  }

  /** Throws the 403 kube-apiserver answers when the user may not make the request. */
  authorize(user: UserInfo, method: string, path: string, query: string): void {
    if (user === ADMIN_USER || isPrivileged(user)) return;
    const attributes = requestAttributes(method, path, query);
    const decision = this.authorizer.authorize({ user, attributes });
    if (!decision.allowed) throw forbiddenError(user, attributes, decision.reason);
  }
}

/**
 * Each header's values, one per header line (Impersonate-Group comes once per group). HTTP/2's
 * compatibility request has no headersDistinct: its raw headers, name and value in turn, say the same.
 */
function distinctHeaders(req: IncomingMessage): NodeJS.Dict<string[]> {
  if (req.headersDistinct) return req.headersDistinct;
  const headers: NodeJS.Dict<string[]> = {};
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) (headers[req.rawHeaders[i]!.toLowerCase()] ??= []).push(req.rawHeaders[i + 1]!);
  return headers;
}
