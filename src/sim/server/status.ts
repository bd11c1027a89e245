// Every error the server answers is a metav1.Status with the HTTP code, reason and message the real
// apiserver would use, so clients' error helpers (IsNotFound, IsConflict, isExpired…) work unchanged.
import { ApiError } from '../../shared/apiError.ts';
import type { Status, StatusDetails } from '../../shared/k8s.ts';
import { withoutEmptyDetails } from '../../shared/apiErrors.ts';

const REASON_BY_CODE: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  409: 'Conflict',
  410: 'Expired',
  413: 'RequestEntityTooLarge',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

export function reasonForCode(code: number): string {
  return REASON_BY_CODE[code] ?? (code >= 500 ? 'InternalError' : 'BadRequest');
}

export function failureStatus(code: number, message: string, reason = reasonForCode(code), details?: StatusDetails): Status {
  const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
  if (details) status.details = withoutEmptyDetails(details);
  return status;
}

/** Any thrown value as the Status to send: ApiErrors keep theirs, anything else is a 500. */
export function statusFromError(err: unknown): Status {
  if (err instanceof ApiError) {
    if (err.status) return err.status;
    return failureStatus(err.code, err.message, err.reason || reasonForCode(err.code));
  }
  const message = err instanceof Error ? err.message : String(err);
  return failureStatus(500, `Internal error occurred: ${message}`, 'InternalError');
}

export function apiError(code: number, message: string, reason = reasonForCode(code), details?: StatusDetails): ApiError {
  return ApiError.fromStatus(failureStatus(code, message, reason, details));
}

/** The 404 for a path no handler serves (the real server's exact wording). */
export function pathNotFound(): ApiError {
  return apiError(404, 'the server could not find the requested resource', 'NotFound', {});
}

/**
 * A path no API group claims (`/foo`, `/apis/unknown.io/...`): kube-apiserver's mux answers these
 * with Go's plain-text 404, not a Status.
 */
export class PageNotFound extends ApiError {
  static readonly TEXT = '404 page not found\n';
  constructor() {
    super(404, '404 page not found', 'NotFound');
  }
}

export function pageNotFound(): ApiError {
  return new PageNotFound();
}

/**
 * The 404 for a path the router could not place: under `/api/` or a served group's `/apis/{g}/`
 * it is a Status, elsewhere (no group claims it) the mux's plain text.
 */
export function unplacedPathNotFound(path: string, servedGroups: () => { name: string }[]): ApiError {
  if (path.startsWith('/api/')) return pathNotFound();
  const group = /^\/apis\/([^/]+)\//.exec(path)?.[1];
  return group !== undefined && servedGroups().some((g) => g.name === group) ? pathNotFound() : pageNotFound();
}

export function badRequest(message: string): ApiError {
  return apiError(400, message, 'BadRequest');
}

/** The method is named by the caller for our logs; kube-apiserver's message does not name it. */
export function methodNotAllowed(_method: string): ApiError {
  return apiError(405, 'the server does not allow this method on the requested resource', 'MethodNotAllowed', {});
}

export const UNAUTHORIZED_STATUS: Status = failureStatus(401, 'Unauthorized', 'Unauthorized');

export function successStatus(details?: StatusDetails): Status {
  const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 200 };
  if (details) status.details = withoutEmptyDetails(details);
  return status;
}
