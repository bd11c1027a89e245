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

/** A request's share of the limit, held until its response closes. */
export interface Seat {
  /** Takes up to `seats` in all for this request (capped at the limit); false (nothing more taken) when they are not free. */
  widen(seats: number): boolean;
}

/**
 * Seats for a LIST answering `objects` objects: kube-apiserver's work estimator counts one seat per
 * 100 objects, at most 10, so a storm of big LISTs is admitted a few at a time and each finishes
 * quickly, instead of hundreds sharing the CPU until none finishes.
 */
export function listSeats(objects: number): number {
  return Math.min(10, Math.max(1, Math.ceil(objects / 100)));
}

interface Pool {
  taken: number;
  readonly limit: number;
}

export class InFlightLimiter {
  private readonly readOnly: Pool;
  private readonly mutating: Pool;

  constructor(limits: InFlightLimits = DEFAULT_IN_FLIGHT_LIMITS) {
    this.readOnly = { taken: 0, limit: limits.readOnly };
    this.mutating = { taken: 0, limit: limits.mutating };
  }

  /** Takes one seat for this request until its response closes; undefined (nothing taken) when none is free. */
  admit(req: IncomingMessage, res: ServerResponse): Seat | undefined {
    const pool = READ_ONLY_METHODS.has(req.method ?? 'GET') ? this.readOnly : this.mutating;
    if (pool.limit > 0 && pool.taken >= pool.limit) return undefined;
    pool.taken++;
    let held = 1;
    res.once('close', () => {
      pool.taken -= held;
    });
    return {
      widen(seats: number): boolean {
        const extra = (pool.limit > 0 ? Math.min(seats, pool.limit) : seats) - held;
        if (extra <= 0) return true;
        if (pool.limit > 0 && pool.taken + extra > pool.limit) return false;
        pool.taken += extra;
        held += extra;
        return true;
      },
    };
  }

  /** Seats taken now. */
  get inFlight(): { readOnly: number; mutating: number } {
    return { readOnly: this.readOnly.taken, mutating: this.mutating.taken };
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
