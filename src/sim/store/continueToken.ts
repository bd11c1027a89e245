import { badRequest } from '../../shared/apiErrors.ts';

// The list continue token, shaped like the apiserver's (base64 of
// {"v":"meta.k8s.io/v1","rv":N,"start":"<next key>"}): opaque to clients, but carrying the RV
// of the snapshot the pages come from and the key to resume at.

export interface ContinueToken {
  rv: number;
  start: string;
}

export function encodeContinue(rv: number, start: string): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv, start })).toString('base64url');
}

export function decodeContinue(token: string): ContinueToken {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('invalid continue token: continue key is not valid: illegal base64 data');
  }
  const t = parsed as { v?: unknown; rv?: unknown; start?: unknown };
  if (t.v !== 'meta.k8s.io/v1') throw badRequest(`invalid continue token: continue key is not valid: server does not recognize this encoded version ${String(t.v ?? '')}`);
  if (typeof t.rv !== 'number' || !Number.isInteger(t.rv) || t.rv <= 0 || typeof t.start !== 'string') {
    throw badRequest('invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
  return { rv: t.rv, start: t.start };
}
