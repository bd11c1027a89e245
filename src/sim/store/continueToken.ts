import { badRequest } from '../../shared/apiErrors.ts';
import { goJsonSyntaxError } from '../vocabulary/goJsonSyntax.ts';

// The list continue token, shaped like the apiserver's (base64 of
// {"v":"meta.k8s.io/v1","rv":N,"start":"<next key>"}): opaque to clients, but carrying the RV
// of the snapshot the pages come from and the key to resume at. rv -1 (INCONSISTENT) is the
// token a 410 for a compacted snapshot hands out: go on from the key at the newest state.

export const INCONSISTENT = -1;

export interface ContinueToken {
  rv: number;
  start: string;
}

export function encodeContinue(rv: number, start: string): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv, start })).toString('base64url');
}

const NOT_VALID = 'invalid continue token: continue key is not valid';
const RAW_URL_BASE64 = /^[A-Za-z0-9_-]*$/;

/** Go's base64.RawURLEncoding: the bytes, or its CorruptInputError's words. */
function rawUrlBase64(token: string): Buffer | string {
  if (!RAW_URL_BASE64.test(token)) return `illegal base64 data at input byte ${token.search(/[^A-Za-z0-9_-]/)}`;
  if (token.length % 4 === 1) return `illegal base64 data at input byte ${token.length - 1}`;
  return Buffer.from(token, 'base64url');
}

export function decodeContinue(token: string): ContinueToken {
  const bytes = rawUrlBase64(token);
  if (typeof bytes === 'string') throw badRequest(`${NOT_VALID}: ${bytes}`);
  // A token that decodes is read as JSON by Go's decoder, whose syntax error the answer carries.
  const syntax = goJsonSyntaxError(bytes);
  if (syntax) throw badRequest(`${NOT_VALID}: ${syntax}`);
  const parsed: unknown = JSON.parse(bytes.toString('utf8'));
  const t = (parsed ?? {}) as { v?: unknown; rv?: unknown; start?: unknown };
  if (t.v !== 'meta.k8s.io/v1') throw badRequest(`invalid continue token: continue key is not valid: server does not recognize this encoded version ${String(t.v ?? '')}`);
  if (typeof t.rv !== 'number' || !Number.isInteger(t.rv) || (t.rv <= 0 && t.rv !== INCONSISTENT) || typeof t.start !== 'string') {
    throw badRequest('invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
  return { rv: t.rv, start: t.start };
}
