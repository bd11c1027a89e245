import type { IncomingHttpHeaders } from 'node:http';
import { forbiddenError } from './forbidden.ts';
import type { RbacAuthorizer } from './rbacAuthorizer.ts';
import type { ResourceAttributes } from './requestAttributes.ts';
import { ANONYMOUS_USER, AUTHENTICATED_GROUP, serviceAccountGroups, serviceAccountOf, UNAUTHENTICATED_GROUP, type UserInfo } from '../vocabulary/userInfo.ts';

// The Impersonate-* headers (`kubectl --as`, `--as-group`, client-go's rest.ImpersonationConfig),
// handled as kube-apiserver's impersonation filter handles them: each thing asked for is
// authorized as verb `impersonate` for the caller, then the request goes on as the user they make.

const EXTRA_PREFIX = 'impersonate-extra-';

/** A request's impersonation headers made no sense (groups without a user): kube-apiserver answers a plain-text 500. */
export class ImpersonationHeadersError extends Error {}

/** One thing asked for, as the filter's ObjectReference holds it (printed the way Go prints that struct). */
interface Asked {
  kind: 'ServiceAccount' | 'User' | 'Group' | 'UserExtra' | 'UID';
  namespace?: string;
  name: string;
  /** The extra's key. */
  key?: string;
}

function goString(a: Asked): string {
  const apiVersion = a.kind === 'UserExtra' || a.kind === 'UID' ? 'authentication.k8s.io/v1' : '';
  return `{${a.kind} ${a.namespace ?? ''} ${a.name}  ${apiVersion}  ${a.key ?? ''}}`;
}

function unescapeKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

function askedFor(headers: NodeJS.Dict<string[]>): Asked[] {
  const asked: Asked[] = [];
  const user = headers['impersonate-user']?.[0] ?? '';
  if (user) {
    const sa = serviceAccountOf(user);
    asked.push(sa ? { kind: 'ServiceAccount', namespace: sa.namespace, name: sa.name } : { kind: 'User', name: user });
  }
  for (const group of headers['impersonate-group'] ?? []) asked.push({ kind: 'Group', name: group });
  for (const [header, values] of Object.entries(headers)) {
    if (!header.startsWith(EXTRA_PREFIX)) continue;
    for (const value of values ?? []) asked.push({ kind: 'UserExtra', name: value, key: unescapeKey(header.slice(EXTRA_PREFIX.length)) });
  }
  const uid = headers['impersonate-uid']?.[0] ?? '';
  if (uid) asked.push({ kind: 'UID', name: uid });
  if (!user && asked.length > 0) throw new ImpersonationHeadersError(`requested [${asked.map(goString).join(' ')}] without impersonating a user`);
  return asked;
}

/** Whether a request carries any impersonation header (cheap: no header is read twice). */
export function asksToImpersonate(headers: IncomingHttpHeaders): boolean {
  for (const name in headers) if (name.startsWith('impersonate-')) return true;
  return false;
}

function attributesFor(a: Asked): ResourceAttributes {
  const base = { resourceRequest: true, verb: 'impersonate', apiVersion: 'v1', namespace: '', name: a.name, subresource: '' } as const;
  switch (a.kind) {
    case 'ServiceAccount':
      return { ...base, apiGroup: '', resource: 'serviceaccounts', namespace: a.namespace ?? '' };
    case 'User':
      return { ...base, apiGroup: '', resource: 'users' };
    case 'Group':
      return { ...base, apiGroup: '', resource: 'groups' };
    case 'UserExtra':
      return { ...base, apiGroup: 'authentication.k8s.io', resource: 'userextras', subresource: a.key ?? '' };
    case 'UID':
      return { ...base, apiGroup: 'authentication.k8s.io', resource: 'uids' };
  }
}

/**
 * The user a request acts as: the caller itself without impersonation headers, else the user the
 * headers make once the caller may impersonate each part. Throws the 403 for a part it may not
 * impersonate, and ImpersonationHeadersError for headers that name no user.
 */
export function impersonatedUser(requester: UserInfo, headers: NodeJS.Dict<string[]>, authorizer: RbacAuthorizer): UserInfo {
  const asked = askedFor(headers);
  if (asked.length === 0) return requester;
  const groupsGiven = (headers['impersonate-group'] ?? []).length > 0;
  let username = '';
  let uid = '';
  const groups: string[] = [];
  const extra: Record<string, string[]> = {};
  for (const a of asked) {
    const attributes = attributesFor(a);
    const decision = authorizer.authorize({ user: requester, attributes });
    if (!decision.allowed) throw forbiddenError(requester, attributes, decision.reason);
    if (a.kind === 'ServiceAccount') {
      username = `system:serviceaccount:${a.namespace}:${a.name}`;
      // A ServiceAccount's groups are known; given groups replace them.
      if (!groupsGiven) groups.push(...serviceAccountGroups(a.namespace ?? ''));
    } else if (a.kind === 'User') username = a.name;
    else if (a.kind === 'Group') groups.push(a.name);
    else if (a.kind === 'UserExtra') (extra[a.key ?? ''] ??= []).push(a.name);
    else uid = a.name;
  }
  if (username !== ANONYMOUS_USER) {
    if (!groups.some((g) => g === AUTHENTICATED_GROUP || g === UNAUTHENTICATED_GROUP)) groups.push(AUTHENTICATED_GROUP);
  } else if (!groups.includes(UNAUTHENTICATED_GROUP)) groups.push(UNAUTHENTICATED_GROUP);
  return { username, ...(uid ? { uid } : {}), groups, ...(Object.keys(extra).length ? { extra } : {}) };
}
