import { ApiError } from '../shared/apiError.ts';
import { honouredRetryAfterMs } from '../shared/retryAfter.ts';

// What the server's refusals tell the reflector to do, read the way client-go's reflector reads them.

/**
 * The server's newest resourceVersion is older than the one asked for (client-go
 * isTooLargeResourceVersionError): typically a server restored or restarted without its history,
 * whose versions now run behind the cache's. Resuming from our version would wait for changes that
 * may never come, or miss the ones it reuses: the only safe answer is a consistent relist.
 */
export function isTooLargeResourceVersion(err: unknown): boolean {
  if (!(err instanceof ApiError)) return false;
  const details = err.status?.details;
  if (details?.causes?.some((c) => c.reason === 'ResourceVersionTooLarge')) return true;
  // Servers 1.17.0–1.18.5 set no cause reason; older ones only say so in the message; both as 504.
  if (err.code !== 504 && err.reason !== 'Timeout') return false;
  if (details?.causes?.some((c) => c.message === 'Too large resource version')) return true;
  return (err.status?.message ?? err.message).includes('Too large resource version');
}

/** The wait the server asked for (Retry-After, or Status details.retryAfterSeconds), in ms, 30 s at most. */
export function retryAfterMs(err: unknown): number {
  if (!(err instanceof ApiError)) return 0;
  const seconds = err.status?.details?.retryAfterSeconds;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? honouredRetryAfterMs(seconds) : 0;
}
