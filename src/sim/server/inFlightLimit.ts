// kube-apiserver's max-requests-inflight: at most so many read-only and so many mutating requests
// are served at once; one more is answered 429 with Retry-After: 1 at once, so a storm of LISTs
// queues in its clients (client-go retries after Retry-After), not in this process. Long-running
// requests (watches) hold no seat, and neither do health checks nor the admin API (the operator's
// controls, exempt as system:masters is from the real limit). A seat is held until the response
// is complete or its client goes away.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { QueryParameters } from './queryParameters.ts';
import type { RequestTarget } from './requestPath.ts';

export interface InFlightLimits {
  /** GET, HEAD, OPTIONS at once (kube-apiserver's --max-requests-inflight, default 400). 0: no limit. */
  readOnly: number;
  /** Other methods at once (--max-mutating-requests-inflight, default 200). 0: no limit. */
  mutating: number;
}

export const DEFAULT_IN_FLIGHT_LIMITS: InFlightLimits = { readOnly: 400, mutating: 200 };

const READ_ONLY_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** What kube-apiserver's max-in-flight filter answers (plain text, as Go's http.Error writes it). */
const TOO_MANY = 'Too many requests, please try again later.\n';

/** Requests that never take a seat: watches (long-running), health checks, the admin API. */
export function isExemptFromLimit(target: RequestTarget, query: string): boolean {
  if (target.kind === 'health' || target.kind === 'admin') return true;
  return target.kind === 'resource' && (target.watchPrefix === true || new QueryParameters(query).isWatch());
}

export class InFlightLimiter {
  private readOnly = 0;
  private mutating = 0;
  private readonly limits: InFlightLimits;

  constructor(limits: InFlightLimits = DEFAULT_IN_FLIGHT_LIMITS) {
    this.limits = limits;
  }

  /** Takes a seat for this request until its response closes; false (nothing taken) when none is free. */
  admit(req: IncomingMessage, res: ServerResponse): boolean {
    const readOnly = READ_ONLY_METHODS.has(req.method ?? 'GET');
    const limit = readOnly ? this.limits.readOnly : this.limits.mutating;
    const inFlight = readOnly ? this.readOnly : this.mutating;
    if (limit > 0 && inFlight >= limit) return false;
    if (readOnly) this.readOnly++;
    else this.mutating++;
    res.once('close', () => {
      if (readOnly) this.readOnly--;
      else this.mutating--;
    });
    return true;
  }

  /** Requests holding a seat now. */
  get inFlight(): { readOnly: number; mutating: number } {
    return { readOnly: this.readOnly, mutating: this.mutating };
  }
}

export function sendTooManyRequests(res: ServerResponse): void {
  res.writeHead(429, {
    'Content-Type': 'text/plain; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
    'Retry-After': '1',
    'Content-Length': Buffer.byteLength(TOO_MANY),
  });
  res.end(TOO_MANY);
}
