// One bearer token guards the whole server (API, discovery, health and admin alike), beside the
// service account tokens the server issued (serviceAccountTokens.ts). Compared in
// constant time; clients are told apart in client insight by user agent plus a short hash of the
// token, never the token itself.
import { createHash, timingSafeEqual } from 'node:crypto';
import { ADMIN_USER, type UserInfo } from '../vocabulary/userInfo.ts';

export class BearerAuth {
  readonly token: string;
  /** First 12 hex digits of sha256(token): safe to show and to record. */
  readonly tokenId: string;
  private readonly expected: Buffer;

  private readonly alsoAccepts: ((token: string) => UserInfo | undefined) | undefined;

  /** `alsoAccepts` tells who other tokens stand for (the service account tokens the server issued). */
  constructor(token: string, alsoAccepts?: (token: string) => UserInfo | undefined) {
    this.token = token;
    this.alsoAccepts = alsoAccepts;
    this.tokenId = createHash('sha256').update(token).digest('hex').slice(0, 12);
    this.expected = Buffer.from(token);
  }

  /**
   * The user an Authorization header's token stands for, undefined when none. Read as
   * kube-apiserver's bearer token authenticator reads it: surrounding spaces trimmed, the scheme in
   * any case ("bearer" too), the token the word after it.
   */
  authenticate(header: string | undefined): UserInfo | undefined {
    if (header === undefined) return undefined;
    const [scheme, token] = header.trim().split(' ', 3);
    if (scheme?.toLowerCase() !== 'bearer' || !token) return undefined;
    return this.userFor(token);
  }

  /** Who a bare token stands for (as a TokenReview asks), undefined when it is none the server knows. */
  userFor(token: string): UserInfo | undefined {
    const given = Buffer.from(token);
    if (given.length === this.expected.length && timingSafeEqual(given, this.expected)) return ADMIN_USER;
    return this.alsoAccepts?.(token);
  }
}
