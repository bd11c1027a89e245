// How long a server may make us wait with Retry-After (or Status details.retryAfterSeconds).
//
// 30 s, the ceiling of client-go's reflector backoff (tools/cache/reflector.go, defaultBackoffMax):
// its reflector never waits longer than that between two attempts, whatever the server said (it
// does not read Retry-After). Its rest client does sleep the header's value as sent, per retried
// request (rest/with_retry.go, IsNextRetry/Before); a server answering `Retry-After: 999999` parks
// such a request for 11.6 days. Past 30 s we come back at 30 s; a server that is still busy says so
// again, and each retry costs it one small request.
export const MAX_RETRY_AFTER_MS = 30_000;

/** The wait to honour for a Retry-After of `seconds`: as asked, up to MAX_RETRY_AFTER_MS. */
export function honouredRetryAfterMs(seconds: number): number {
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, seconds * 1000));
}
