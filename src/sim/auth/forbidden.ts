import { ApiError } from '../../shared/apiError.ts';
import { withoutEmptyDetails } from '../../shared/apiErrors.ts';
import { qualifiedResource, type Status } from '../../shared/k8s.ts';
import type { RequestAttributes } from './requestAttributes.ts';
import type { UserInfo } from './userInfo.ts';

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
  const group = a.resourceRequest ? a.apiGroup : '';
  const resource = a.resourceRequest ? a.resource : '';
  const name = a.resourceRequest ? a.name : '';
  const what = resource ? qualifiedResource({ group, resource }) : '';
  const message = !what ? `forbidden: ${why}` : name ? `${what} "${name}" is forbidden: ${why}` : `${what} is forbidden: ${why}`;
  const status: Status = {
    apiVersion: 'v1',
    kind: 'Status',
    metadata: {},
    status: 'Failure',
    message,
    reason: 'Forbidden',
    details: withoutEmptyDetails({ name, group, kind: resource }),
    code: 403,
  };
  return new ApiError(403, message, 'Forbidden', status);
}

/**
 * A 403 for a named object of a resource with the reason spelled out (apimachinery's NewForbidden),
 * as RBAC's escalation checks answer.
 */
export function forbiddenBecause(group: string, resource: string, name: string, why: string): ApiError {
  const what = qualifiedResource({ group, resource });
  const message = name ? `${what} "${name}" is forbidden: ${why}` : `${what} is forbidden: ${why}`;
  const status: Status = { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', message, reason: 'Forbidden', details: withoutEmptyDetails({ name, group, kind: resource }), code: 403 };
  return new ApiError(403, message, 'Forbidden', status);
}
