import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { constants as bufferConstants } from 'node:buffer';
import { setTimeout as delay } from 'node:timers/promises';
import { ApiError } from '../shared/apiError.ts';
import { isStatus } from '../shared/k8s.ts';
import { honouredRetryAfterMs } from '../shared/retryAfter.ts';
import type { Status } from '../shared/k8s.ts';
import { ConnectionError, StallError } from './errors.ts';
import type { Transport } from './transport.ts';

// One HTTP exchange with the API server over Node's http/https. The body stays a stream (watches
// never end); a gzip body is decoded on the way. A non-2xx answer becomes ApiError carrying the
// server's Status, so callers see 401/403/404/410/429/500 the way client-go reports them. A server
// that goes silent is not waited for forever: see TransportOptions.stallTimeoutMs.

export interface RequestOptions {
  method?: string;
  /** Query parameters; undefined values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  body?: string | Buffer;
  signal?: AbortSignal;
  /** What a slow answer is named as in the transport's warning (default: `the answer to GET /path`). */
  awaited?: string;
}

/** An accepted (2xx) answer: status, headers and the decoded body stream. */
export interface StreamedResponse {
  statusCode: number;
  headers: IncomingMessage['headers'];
  body: Readable;
  /** Tears the connection down (for a watch that is no longer wanted). */
  destroy(): void;
}

const ERROR_BODY_LIMIT = 1 << 20;
export const MAX_STRING_LENGTH = bufferConstants.MAX_STRING_LENGTH;

/**
 * Longest run of decoding (ms) before the event loop gets a turn. A socket that fell behind hands
 * over megabytes in one turn (libuv reads up to 32 × 64 KB per poll): decoded at once, that kept
 * views, timers and other extensions waiting for hundreds of ms.
 */
export const DECODE_SLICE_MS = 8;

export function buildPath(transport: Transport, path: string, query?: RequestOptions['query']): string {
  let out = transport.basePath + path;
  if (query) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v));
    const qs = params.toString();
    if (qs) out += (out.includes('?') ? '&' : '?') + qs;
  }
  return out;
}

/**
 * Sends the request; resolves with the streamed body of a 2xx answer, rejects with ApiError otherwise.
 * A 429 or 5xx carrying a Retry-After header is sent again once that many seconds have passed (30 s
 * at most: see MAX_RETRY_AFTER_MS), up to `transport.maxRetries` times (client-go's rest client: 10).
 */
export async function streamRequest(transport: Transport, path: string, options: RequestOptions = {}): Promise<StreamedResponse> {
  for (let attempt = 1; ; attempt++) {
    const answer = await sendOnce(transport, path, options);
    if (!('error' in answer)) return answer;
    const { error, retryAfterSeconds } = answer;
    if (retryAfterSeconds === undefined || attempt > transport.maxRetries) throw error;
    const waitMs = honouredRetryAfterMs(retryAfterSeconds);
    const askedMs = retryAfterSeconds * 1000;
    transport.onRetry?.({ method: options.method ?? 'GET', path, code: error.code, reason: error.reason, message: error.message, waitMs, askedMs, attempt, maxRetries: transport.maxRetries });
    await delay(waitMs, undefined, { signal: options.signal });
  }
}

type Answer = StreamedResponse | { error: ApiError; retryAfterSeconds: number | undefined };

async function sendOnce(transport: Transport, path: string, options: RequestOptions): Promise<Answer> {
  const base = await transport.prepare();
  options.signal?.throwIfAborted();
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Accept-Encoding': 'gzip',
    ...(base.headers as Record<string, string>),
    ...options.headers,
  };
  if (options.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(options.body));
  const method = options.method ?? 'GET';
  const req = transport.requestFn({ ...base, method, path: buildPath(transport, path, options.query), headers, signal: options.signal });
  const server = transport.server.origin;
  const stallMs = transport.stallTimeoutMs;

  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const timer = setTimeout(() => {
      const err: NodeJS.ErrnoException = new Error(`no connection after ${transport.connectTimeoutMs} ms`);
      err.code = 'ETIMEDOUT';
      req.destroy(err);
    }, transport.connectTimeoutMs);
    // Connected but never answered (a hung server, a proxy holding the request): give up.
    const stall = stallMs > 0 ? setTimeout(() => req.destroy(new StallError(server, `in answer to ${method} ${path}`, stallMs)), stallMs) : undefined;
    // Said once, well before the stall timeout, so that a hung server is not a silent minute.
    const warnMs = transport.slowAnswerWarnAfterMs;
    const slow = warnMs > 0 && (stallMs <= 0 || warnMs < stallMs) ? setTimeout(() => {
      const awaited = options.awaited ?? `the answer to ${method} ${path}`;
      const until = stallMs > 0 ? `gives up after ${stallMs / 1000} s` : 'no stall timeout';
      transport.warnSlowAnswer(`still waiting for ${awaited} from ${server}: nothing after ${warnMs / 1000} s (${until})`);
    }, warnMs) : undefined;
    const settle = (): void => {
      clearTimeout(timer);
      clearTimeout(stall);
      clearTimeout(slow);
    };
    req.on('socket', (socket) => {
      // A watch can sit idle for minutes; TCP keep-alive notices a peer that vanished without a FIN
      // (client-go relies on the same, with a 30 s period).
      socket.setKeepAlive(true, 30_000);
      if (!socket.connecting) return clearTimeout(timer);
      socket.once(transport.secure ? 'secureConnect' : 'connect', () => clearTimeout(timer));
    });
    req.on('response', (r) => {
      settle();
      resolve(r);
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      settle();
      reject(err.name === 'AbortError' || err instanceof StallError ? err : new ConnectionError(server, err));
    });
    req.end(options.body);
  });

  const statusCode = res.statusCode ?? 0;
  // node:zlib is loaded with the first gzipped answer (a large list), not with every command.
  const body: Readable = res.headers['content-encoding'] === 'gzip' ? res.pipe(process.getBuiltinModule('node:zlib').createGunzip()) : res;
  if (body !== res) {
    res.on('error', (err) => body.destroy(err));
    // A gunzip stream given up on (stalled, stopped) must let go of the connection under it too.
    body.once('close', () => res.complete || res.destroy());
  }
  if (statusCode >= 200 && statusCode <= 299) return { statusCode, headers: res.headers, body, destroy: () => req.destroy() };
  const header = res.headers['retry-after'];
  const error = withRetryAfter(await apiErrorFrom(statusCode, res.statusMessage ?? '', body, stallGuard(transport, `while sending the error body of ${method} ${path}`)), header);
  return { error, retryAfterSeconds: statusCode === 429 || (statusCode >= 500 && !isResourceVersionTooLarge(error)) ? retryAfterSeconds(header) : undefined };
}

/** Sends the request and parses the whole JSON answer; a body that stalls is aborted (StallError). */
export async function jsonRequest<T>(transport: Transport, path: string, options: RequestOptions = {}): Promise<T> {
  const release = await transport.requestPlace();
  try {
    options.signal?.throwIfAborted();
    return await readJson<T>(transport, path, options);
  } finally {
    release();
  }
}

async function readJson<T>(transport: Transport, path: string, options: RequestOptions): Promise<T> {
  const res = await streamRequest(transport, path, options);
  const what = `${options.method ?? 'GET'} ${path}`;
  // V8 cannot hold a longer string, so such an answer could never be parsed: stop reading it
  // rather than buffer it whole and fail (or run out of memory) at the end.
  const tooLarge = (): Error => new ApiError(res.statusCode, `the answer to ${what} is larger than ${MAX_STRING_LENGTH} bytes, more than can be parsed: ask for smaller pages`, 'InvalidResponse');
  const text = await readAll(res.body, MAX_STRING_LENGTH, stallGuard(transport, `in the middle of the answer to ${what}`), tooLarge);
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ApiError(res.statusCode, `the server sent invalid JSON for ${path} (${text.length} bytes)`, 'InvalidResponse');
  }
}

/** How long a body may go without a byte before it is abandoned, and the error that says so. */
export interface StallGuard {
  ms: number;
  error(): Error;
}

export function stallGuard(transport: Transport, what: string): StallGuard | undefined {
  const ms = transport.stallTimeoutMs;
  return ms > 0 ? { ms, error: () => new StallError(transport.server.origin, what, ms) } : undefined;
}

/**
 * Reads a body to the end as UTF-8 (one Buffer.concat, one decode: fastest for big lists). Past
 * `limit` bytes it stops reading: it returns what it has, or throws `tooLarge()` when given.
 */
export async function readAll(body: Readable, limit = Infinity, stall?: StallGuard, tooLarge?: () => Error): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  const timer = stall ? setTimeout(() => body.destroy(stall.error()), stall.ms) : undefined;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      timer?.refresh();
      chunks.push(chunk);
      size += chunk.length;
      if (size > limit) {
        body.destroy();
        if (tooLarge) throw tooLarge();
        break;
      }
    }
  } finally {
    clearTimeout(timer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

// "Too large resource version" comes with Retry-After: 1, and client-go waits it out up to 10 times
// hoping the server's cache catches up. The server already waited for that (kube-apiserver's watch
// cache: up to 3 s) before answering; a server that lost its history never catches up, and the
// informer's answer, a consistent relist, is right in both cases: hand it the error at once.
function isResourceVersionTooLarge(err: ApiError): boolean {
  return err.status?.details?.causes?.some((c) => c.reason === 'ResourceVersionTooLarge') ?? false;
}

// client-go (checkWait) honours only a whole number of seconds.
function retryAfterSeconds(header: string | undefined): number | undefined {
  if (header === undefined || !/^\s*\d+\s*$/.test(header)) return undefined;
  return Number(header);
}

async function apiErrorFrom(code: number, statusText: string, body: Readable, stall: StallGuard | undefined): Promise<ApiError> {
  let text = '';
  try {
    text = await readAll(body, ERROR_BODY_LIMIT, stall);
  } catch {
    // The Status is a courtesy; the HTTP code alone still says what happened.
  }
  let status: Status | undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (isStatus(parsed)) status = parsed;
  } catch {
    // Not JSON (a proxy's HTML page, say): keep the text.
  }
  if (status) return new ApiError(code, status.message ?? `${code} ${status.reason ?? statusText}`, status.reason ?? '', { ...status, code: status.code || code });
  const message = text.trim().split('\n', 1)[0]?.slice(0, 200) || statusText || `HTTP ${code}`;
  return new ApiError(code, message, reasonFor(code));
}

// A 429 or 503 may say when to come back only in its Retry-After header; keep it where client-go
// looks (Status.details.retryAfterSeconds).
function withRetryAfter(err: ApiError, header: string | undefined): ApiError {
  const seconds = header === undefined ? NaN : Number(header);
  if (!Number.isFinite(seconds) || err.status?.details?.retryAfterSeconds !== undefined) return err;
  const status: Status = err.status ?? { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', code: err.code, reason: err.reason, message: err.message };
  return new ApiError(err.code, err.message, err.reason, { ...status, details: { ...status.details, retryAfterSeconds: seconds } });
}

// The reasons the API server uses for these codes (metav1.StatusReason), for answers with no Status.
function reasonFor(code: number): string {
  const reasons: Record<number, string> = {
    400: 'BadRequest', 401: 'Unauthorized', 403: 'Forbidden', 404: 'NotFound', 405: 'MethodNotAllowed',
    409: 'Conflict', 410: 'Expired', 422: 'Invalid', 429: 'TooManyRequests', 500: 'InternalError', 503: 'ServiceUnavailable', 504: 'Timeout',
  };
  return reasons[code] ?? '';
}
