import type { Status } from './k8s.ts';

/** An API answer that was not a success, carrying the server's Status when it sent one. */
export class ApiError extends Error {
  readonly code: number;
  readonly reason: string;
  readonly status: Status | undefined;

  constructor(code: number, message: string, reason = '', status?: Status) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.reason = reason || status?.reason || '';
    this.status = status;
  }

  static fromStatus(status: Status): ApiError {
    return new ApiError(status.code, status.message ?? `${status.code} ${status.reason ?? ''}`.trim(), status.reason, status);
  }
}

/** 410 Gone / Expired: the resourceVersion asked for is older than the server keeps; relist. */
export function isExpired(err: unknown): boolean {
  return err instanceof ApiError && (err.code === 410 || err.reason === 'Expired' || err.reason === 'Gone');
}

export function isNotFound(err: unknown): boolean {
  return err instanceof ApiError && err.code === 404;
}

export function isConflict(err: unknown): boolean {
  return err instanceof ApiError && err.code === 409;
}

export function isUnauthorized(err: unknown): boolean {
  return err instanceof ApiError && (err.code === 401 || err.code === 403);
}
