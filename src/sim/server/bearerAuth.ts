// One bearer token guards the whole server (API, discovery, health and admin alike). Compared in
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

  constructor(token: string) {
    this.token = token;
    this.tokenId = createHash('sha256').update(token).digest('hex').slice(0, 12);
    this.expected = Buffer.from(`Bearer ${token}`);
  }

  /** Whether an Authorization header carries this token. */
  accepts(header: string | undefined): boolean {
    if (header === undefined || header.length !== this.expected.length) return false;
    return timingSafeEqual(Buffer.from(header), this.expected);
  }
}
