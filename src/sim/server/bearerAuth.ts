// One bearer token guards the whole server (API, discovery, health and admin alike), beside the
// service account tokens the server issued (serviceAccountTokens.ts). Compared in
// constant time; clients are told apart in client insight by user agent plus a short hash of the
// token, never the token itself.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Who the token stands for, as `kubectl auth whoami` shows it: one cluster admin (system:masters),
 * since the sim authorizes every request that carries the token.
 */
export const TOKEN_USER = { username: 'controller-lab', groups: ['system:masters', 'system:authenticated'] } as const;

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export class BearerAuth {
  readonly token: string;
  /** First 12 hex digits of sha256(token): safe to show and to record. */
  readonly tokenId: string;
  private readonly expected: Buffer;

  private readonly alsoAccepts: ((token: string) => boolean) | undefined;

  /** `alsoAccepts` judges other tokens (the service account tokens the server issued). */
  constructor(token: string, alsoAccepts?: (token: string) => boolean) {
    this.token = token;
    this.alsoAccepts = alsoAccepts;
    this.tokenId = createHash('sha256').update(token).digest('hex').slice(0, 12);
    this.expected = Buffer.from(token);
  }

  /**
   * Whether an Authorization header carries this token. Read as kube-apiserver's bearer token
   * authenticator reads it: surrounding spaces trimmed, the scheme in any case ("bearer" too),
   * the token the word after it.
   */
  accepts(header: string | undefined): boolean {
    if (header === undefined) return false;
    const [scheme, token] = header.trim().split(' ', 3);
    if (scheme?.toLowerCase() !== 'bearer' || !token) return false;
    const given = Buffer.from(token);
    if (given.length === this.expected.length && timingSafeEqual(given, this.expected)) return true;
    return this.alsoAccepts?.(token) ?? false;
  }
}
