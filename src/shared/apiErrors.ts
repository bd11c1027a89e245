import { ApiError } from './apiError.ts';
import type { Status, StatusDetails } from './k8s.ts';
import { qualifiedResource } from './k8s.ts';

// Constructors for the Status answers kube-apiserver gives, with its exact reasons and messages
// (k8s.io/apimachinery/pkg/api/errors), so clients that match on them behave as against a real server.

function failure(code: number, reason: string, message: string, details?: StatusDetails): ApiError {
  const status: Status = { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', message, code };
  // Go leaves an empty reason out (StatusReasonUnknown), as every empty detail (all omitempty).
  if (reason) status.reason = reason;
  if (details) status.details = withoutEmptyDetails(details);
  return new ApiError(code, message, reason, status);
}

/** The details as Go prints them: empty name, group, kind and causes are left out. */
export function withoutEmptyDetails(details: StatusDetails): StatusDetails {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(details)) if (v !== '' && v !== undefined && !(Array.isArray(v) && v.length === 0)) out[k] = v;
  return out as StatusDetails;
}

/** A 500 with no reason, as kube-apiserver answers an error its storage passes up unclassified. */
export function unclassified(message: string): ApiError {
  return failure(500, '', message);
}

export function notFound(group: string, resource: string, name: string): ApiError {
  return failure(404, 'NotFound', `${qualifiedResource({ group, resource })} "${name}" not found`, { name, group, kind: resource });
}

export function resourceNotFound(): ApiError {
  return failure(404, 'NotFound', 'the server could not find the requested resource', {});
}

export function alreadyExists(group: string, resource: string, name: string): ApiError {
  return failure(409, 'AlreadyExists', `${qualifiedResource({ group, resource })} "${name}" already exists`, { name, group, kind: resource });
}

/** A create for a name whose object is still being deleted (finalizers): the storage says why. */
export function alreadyExistsBeingDeleted(group: string, resource: string, name: string): ApiError {
  return failure(409, 'AlreadyExists', `object is being deleted: ${qualifiedResource({ group, resource })} "${name}" already exists`, { name, group, kind: resource });
}

export function conflict(group: string, resource: string, name: string, why: string): ApiError {
  return failure(409, 'Conflict', `Operation cannot be fulfilled on ${qualifiedResource({ group, resource })} "${name}": ${why}`, { name, group, kind: resource });
}

export const STALE_OBJECT = 'the object has been modified; please apply your changes to the latest version and try again';

export interface Cause {
  reason: string;
  message: string;
  field: string;
}

export function invalid(group: string, kind: string, name: string, causes: Cause[]): ApiError {
  // Go's ToAggregate says each distinct error once; the causes keep every one.
  const distinct = [...new Set(causes.map((c) => `${c.field}: ${c.message}`))];
  const what = distinct.length === 1 ? distinct[0] : `[${distinct.join(', ')}]`;
  return failure(422, 'Invalid', `${kind}${group ? `.${group}` : ''} "${name}" is invalid: ${what}`, { name, group, kind, causes });
}

export function badRequest(message: string): ApiError {
  return failure(400, 'BadRequest', message);
}

export function methodNotAllowed(message: string): ApiError {
  return failure(405, 'MethodNotAllowed', message);
}

/** A patch type the resource does not take (a strategic merge patch to a custom resource), with the ones it does. */
export function unsupportedMediaType(accepted: readonly string[]): ApiError {
  return failure(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`);
}

/** What a watch's ERROR event and an Exact list at a compacted RV carry. */
export function expired(message: string): ApiError {
  return failure(410, 'Expired', message);
}

export function tooOldResourceVersion(asked: number, oldest: number): ApiError {
  return expired(`too old resource version: ${asked} (${oldest})`);
}

export const CONTINUE_EXPIRED =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/**
 * A paged list's next page from a snapshot since compacted: 410, carrying the token the message
 * offers — the same key, at resourceVersion -1, which continues at the newest state (an
 * inconsistent list, as the message warns).
 */
export function continueExpired(inconsistentContinue: string): ApiError {
  const err = expired(CONTINUE_EXPIRED);
  if (err.status) err.status.metadata.continue = inconsistentContinue;
  return err;
}

/** The watch cache's answer to a resourceVersion newer than it has seen (after its wait). */
export function tooLargeResourceVersion(asked: number, current: number): ApiError {
  return failure(504, 'Timeout', `Timeout: Too large resource version: ${asked}, current: ${current}`, {
    causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
    retryAfterSeconds: 1,
  });
}

/** apierrors.NewForbidden: `<resource> "<name>" is forbidden: <why>`. */
export function forbidden(group: string, resource: string, name: string, why: string): ApiError {
  return failure(403, 'Forbidden', `${qualifiedResource({ group, resource })} "${name}" is forbidden: ${why}`, { name, group, kind: resource });
}

export function forbiddenTerminating(group: string, resource: string, name: string, namespace: string): ApiError {
  return failure(403, 'Forbidden', `${qualifiedResource({ group, resource })} "${name}" is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`, { name, group, kind: resource, causes: [{ reason: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' }] });
}

export function namespaceNotFound(namespace: string): ApiError {
  return failure(404, 'NotFound', `namespaces "${namespace}" not found`, { name: namespace, kind: 'namespaces' });
}

/** apierrors.NewInternalError: a 500 saying what went wrong inside the server. */
export function internalError(message: string): ApiError {
  return failure(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] });
}
