// Who a request speaks for, as kube-apiserver's authenticators and impersonation describe a user
// (k8s.io/apiserver's user.Info): the name RBAC subjects of kind User match, the groups Group
// subjects match, and the extras webhooks and TokenReviews pass on.

export interface UserInfo {
  readonly username: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/** Members of system:masters pass every authorization check, before RBAC is asked. */
export const MASTERS_GROUP = 'system:masters';
export const AUTHENTICATED_GROUP = 'system:authenticated';
export const UNAUTHENTICATED_GROUP = 'system:unauthenticated';
export const ANONYMOUS_USER = 'system:anonymous';

/** The holder of the server's own token: one cluster admin, as envtest's and kind's admin users are. */
export const ADMIN_USER: UserInfo = { username: 'controller-lab', groups: [MASTERS_GROUP, AUTHENTICATED_GROUP] };

const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';

/** The user a ServiceAccount's tokens authenticate as, with the groups every such user has. */
export function serviceAccountUser(namespace: string, name: string, uid?: string, extra?: Record<string, string[]>): UserInfo {
  return {
    username: `${SERVICE_ACCOUNT_PREFIX}${namespace}:${name}`,
    ...(uid ? { uid } : {}),
    groups: [...serviceAccountGroups(namespace), AUTHENTICATED_GROUP],
    ...(extra ? { extra } : {}),
  };
}

/** The groups every ServiceAccount of a namespace is in (besides system:authenticated). */
export function serviceAccountGroups(namespace: string): string[] {
  return ['system:serviceaccounts', `system:serviceaccounts:${namespace}`];
}

/** `system:serviceaccount:ns:name` split into its namespace and name; undefined for any other username. */
export function serviceAccountOf(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SERVICE_ACCOUNT_PREFIX)) return undefined;
  const parts = username.slice(SERVICE_ACCOUNT_PREFIX.length).split(':');
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '') return undefined;
  return { namespace: parts[0]!, name: parts[1]! };
}

/** A user as the API's UserInfo prints it (TokenReview, SelfSubjectReview, AdmissionReview): empty uid and extra left out. */
export function userInfoJson(user: UserInfo): Record<string, unknown> {
  return { username: user.username, ...(user.uid ? { uid: user.uid } : {}), groups: [...user.groups], ...(user.extra ? { extra: user.extra } : {}) };
}

export function isPrivileged(user: UserInfo): boolean {
  return user.groups.includes(MASTERS_GROUP);
}
