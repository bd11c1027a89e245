import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../shared/clock.ts';
import type { SimClusterApi } from '../simCluster.ts';
import { serviceAccountUser, type UserInfo } from '../vocabulary/userInfo.ts';
import { goQuotedStrings } from '../vocabulary/goValues.ts';

// The tokens serviceaccounts/token issues: JWTs with the claims kube-apiserver's issuer writes
// (iss, sub system:serviceaccount:ns:name, aud, exp/iat/nbf, the kubernetes.io claims), signed by
// the sim itself with HS256 under a key derived from the server's own token, so they verify across
// restarts of a state dir. The server accepts them as bearer tokens while they are unexpired and
// their ServiceAccount is the one they were issued for (same uid).

export const DEFAULT_AUDIENCE = 'https://kubernetes.default.svc.cluster.local';
const ISSUER = DEFAULT_AUDIENCE;

export interface TokenClaims {
  namespace: string;
  serviceAccount: { name: string; uid: string };
  audiences: string[];
  /** Seconds since the epoch. */
  issuedAt: number;
  expirationSeconds: number;
  /** The Pod or Secret the token is bound to. */
  boundTo?: { kind: 'Pod' | 'Secret'; name: string; uid: string };
}

export interface VerifiedToken {
  namespace: string;
  serviceAccount: { name: string; uid: string };
  audiences: string[];
  /** The Pod the token is bound to, if it is. */
  pod?: { name: string; uid: string };
}

const base64url = (value: string | Buffer): string => Buffer.from(value).toString('base64url');

export class ServiceAccountTokens {
  private readonly key: Buffer;
  private readonly keyId: string;
  private readonly clock: Clock;

  constructor(serverToken: string, clock: Clock) {
    this.key = createHmac('sha256', serverToken).update('controller-lab service account token signing').digest();
    this.keyId = createHash('sha256').update(this.key).digest('base64url');
    this.clock = clock;
  }

  issue(claims: TokenClaims): string {
    const sa = claims.serviceAccount;
    const payload: Record<string, unknown> = {
      aud: claims.audiences,
      exp: claims.issuedAt + claims.expirationSeconds,
      iat: claims.issuedAt,
      iss: ISSUER,
      'kubernetes.io': {
        namespace: claims.namespace,
        ...(claims.boundTo ? { [claims.boundTo.kind.toLowerCase()]: { name: claims.boundTo.name, uid: claims.boundTo.uid } } : {}),
        serviceaccount: { name: sa.name, uid: sa.uid },
      },
      nbf: claims.issuedAt,
      sub: `system:serviceaccount:${claims.namespace}:${sa.name}`,
    };
    const signed = `${base64url(JSON.stringify({ alg: 'HS256', kid: this.keyId }))}.${base64url(JSON.stringify(payload))}`;
    return `${signed}.${this.sign(signed)}`;
  }

  /** The ServiceAccount a token this server issued stands for, if its signature holds and it has not expired. */
  verify(token: string): VerifiedToken | undefined {
    const parts = token.split('.');
    if (parts.length !== 3) return undefined;
    const given = Buffer.from(parts[2]!);
    const expected = Buffer.from(this.sign(`${parts[0]}.${parts[1]}`));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    let payload: { aud?: unknown; exp?: unknown; nbf?: unknown; 'kubernetes.io'?: { namespace?: unknown; serviceaccount?: { name?: unknown; uid?: unknown }; pod?: { name?: unknown; uid?: unknown } } };
    try {
      payload = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
    } catch {
      return undefined;
    }
    const now = Math.floor(this.clock.now() / 1000);
    if (typeof payload.exp !== 'number' || payload.exp <= now) return undefined;
    if (typeof payload.nbf === 'number' && payload.nbf > now) return undefined;
    const k8s = payload['kubernetes.io'];
    const name = k8s?.serviceaccount?.name;
    const uid = k8s?.serviceaccount?.uid;
    if (typeof k8s?.namespace !== 'string' || typeof name !== 'string' || typeof uid !== 'string') return undefined;
    const audiences = Array.isArray(payload.aud) ? payload.aud.filter((a): a is string => typeof a === 'string') : typeof payload.aud === 'string' ? [payload.aud] : [];
    const pod = k8s.pod;
    const boundPod = typeof pod?.name === 'string' && typeof pod.uid === 'string' ? { pod: { name: pod.name, uid: pod.uid } } : {};
    return { namespace: k8s.namespace, serviceAccount: { name, uid }, audiences, ...boundPod };
  }

  private sign(data: string): string {
    return createHmac('sha256', this.key).update(data).digest('base64url');
  }
}

export interface TokenAuthentication {
  user: UserInfo;
  /** The audiences asked for that the token was issued for. */
  audiences: string[];
}

/** A token of ours refused for a reason worth telling a TokenReview (as kube-apiserver's authenticator tells it). */
export interface TokenRejection {
  error: string;
}


/**
 * Who a presented token stands for, if it is one of ours, issued for one of the audiences asked
 * (the API server's own by default), and its ServiceAccount still exists as it was issued for —
 * with the groups and the extras (the Pod it is bound to) kube-apiserver's authenticator gives.
 */
export function authenticateServiceAccountToken(cluster: SimClusterApi, tokens: ServiceAccountTokens, token: string, audiences: readonly string[] = [DEFAULT_AUDIENCE]): TokenAuthentication | TokenRejection | undefined {
  const verified = tokens.verify(token);
  if (!verified) return undefined;
  const matching = verified.audiences.filter((a) => audiences.includes(a));
  if (matching.length === 0) return { error: `token audiences ${goQuotedStrings(verified.audiences)} is invalid for the target audiences ${goQuotedStrings(audiences)}` };
  const { namespace, serviceAccount, pod } = verified;
  try {
    const sa = cluster.get({ group: '', version: 'v1', resource: 'serviceaccounts' }, namespace, serviceAccount.name);
    if (sa.object.metadata.uid !== serviceAccount.uid) return undefined;
    // A token bound to a Pod dies with it.
    if (pod && cluster.get({ group: '', version: 'v1', resource: 'pods' }, namespace, pod.name).object.metadata.uid !== pod.uid) return undefined;
  } catch {
    return undefined;
  }
  const extra = pod ? { 'authentication.kubernetes.io/pod-name': [pod.name], 'authentication.kubernetes.io/pod-uid': [pod.uid] } : undefined;
  return { user: serviceAccountUser(namespace, serviceAccount.name, serviceAccount.uid, extra), audiences: matching };
}
