// HTTP/2 as kube-apiserver serves it: negotiated by ALPN over TLS (client-go and kubectl offer h2
// first and multiplex every request and watch over one connection), HTTP/1.1 on the same port for
// clients that ask for it. Node's HTTP/2 compatibility API hands both to one request listener; the
// few places where the protocols differ ask `speaksHttp2`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import { MAX_HEADER_BYTES } from './malformedRequests.ts';

/** kube-apiserver's default for --http2-max-streams-per-connection (golang.org/x/net's is 1000). */
export const HTTP2_MAX_CONCURRENT_STREAMS = 250;

/**
 * Memory an HTTP/2 session may hold in its buffers before it refuses new streams, in MB. Node's
 * default (10) is a few hundred watches' worth of queued events on one connection; client-go
 * multiplexes up to 250 watches on each.
 */
const MAX_SESSION_MEMORY_MB = 256;

/** Options for http2.createSecureServer besides the certificate. */
export const HTTP2_SERVER_OPTIONS = {
  allowHTTP1: true,
  maxSessionMemory: MAX_SESSION_MEMORY_MB,
  settings: {
    maxConcurrentStreams: HTTP2_MAX_CONCURRENT_STREAMS,
    // A label selector of 100 KB in the URL is served over HTTP/2 as over HTTP/1.1.
    maxHeaderListSize: MAX_HEADER_BYTES,
  },
} as const;

/** What ALPN offers, preferred first (as Go's server with HTTP/2 enabled). */
export const ALPN_PROTOCOLS = ['h2', 'http/1.1'];

/** Whether the request came over HTTP/2 (its answer may carry no connection-specific header). */
export function speaksHttp2(req: IncomingMessage): boolean {
  return req.httpVersionMajor === 2;
}

/**
 * Closes an HTTP/1.1 connection once `res` is sent (a body left unread must not be taken for the
 * next request). Over HTTP/2 a stream ends alone, the connection serving on: a 'Connection' header
 * would be dropped there with a warning.
 */
export function closeConnectionAfter(req: IncomingMessage, res: ServerResponse): void {
  if (!speaksHttp2(req)) res.setHeader('Connection', 'close');
}

/**
 * Whether a body may follow the headers: HTTP/1.1 declares it (Content-Length or chunked); an
 * HTTP/2 request may send DATA frames without a content-length, and has none when its HEADERS
 * frame ended the stream.
 */
export function mayHaveBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return length !== '0';
  if (speaksHttp2(req)) return !(req as unknown as Http2ServerRequest).stream.endAfterHeaders;
  return req.headers['transfer-encoding'] !== undefined;
}
