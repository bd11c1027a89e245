import { ApiError } from '../../shared/apiError.ts';
import { withoutEmptyDetails } from '../../shared/apiErrors.ts';
import { qualifiedResource, type Status } from '../../shared/k8s.ts';
import type { RequestAttributes } from './requestAttributes.ts';
import type { UserInfo } from '../vocabulary/userInfo.ts';

// The 403 kube-apiserver answers a request its authorizer did not allow, word for word
// (responsewriters.Forbidden): what the user cannot do, where, and the authorizer's reason.

const HTML_SPECIAL: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

function forbiddenMessage(user: UserInfo, a: RequestAttributes): string {
  if (!a.resourceRequest) return `User "${user.username}" cannot ${a.verb} path "${a.path}"`;
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const scope = a.namespace ? `in the namespace "${a.namespace}"` : 'at the cluster scope';
  return `User "${user.username}" cannot ${a.verb} resource "${resource}" in API group "${a.apiGroup}" ${scope}`;
}

export function forbiddenError(user: UserInfo, a: RequestAttributes, reason: string): ApiError {
  const why = forbiddenMessage(user, a).replace(/[&<>]/g, (c) => HTML_SPECIAL[c]!) + (reason ? `: ${reason}` : '');
  return a.resourceRequest ? forbiddenBecause(a.apiGroup, a.resource, a.name, why) : forbiddenBecause('', '', '', why);
}

/**
 * A 403 with the reason spelled out, as apimachinery's NewForbidden words it for a named object, a
 * resource, or (no resource: a path) nothing: RBAC's refusals and its escalation checks answer so.
 */
export function forbiddenBecause(group: string, resource: string, name: string, why: string): ApiError {
  const what = resource ? qualifiedResource({ group, resource }) : '';
  const message = !what ? `forbidden: ${why}` : name ? `${what} "${name}" is forbidden: ${why}` : `${what} is forbidden: ${why}`;
  const status: Status = { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', message, reason: 'Forbidden', details: withoutEmptyDetails({ name, group, kind: resource }), code: 403 };
  return new ApiError(403, message, 'Forbidden', status);
}
