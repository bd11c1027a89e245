import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createSecureServer, type Http2SecureServer } from 'node:http2';
import type { AddressInfo, Server as NetServer, Socket } from 'node:net';
import type { ServingPki } from '../tls/certificates.ts';
import { HTTP2_SERVER_OPTIONS } from './http2Settings.ts';
import { IdleHttp1Connections } from './idleHttp1Connections.ts';
import { answerMalformedRequest, MAX_HEADER_BYTES } from './malformedRequests.ts';
import { OpenHttp2Responses } from './openHttp2Responses.ts';
import { gateHandshakes } from './tlsHandshakeGate.ts';

// The server listening on 127.0.0.1 only: HTTPS (HTTP/2 or HTTP/1.1, as ALPN settles it) behind a
// gate that admits a few TLS handshakes at a time, or plain HTTP/1.1; every connection tracked so
// that closing ends them all. Its requests go to the listener the caller passes to onRequest
// (before it next awaits, so no request is missed).

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

export interface LoopbackListener {
  readonly server: Server | Http2SecureServer;
  readonly port: number;
  /**
   * Serves every request with `listener`. Over HTTP/2 it gets Node's compatibility request and
   * response, which answer what the server uses of IncomingMessage and ServerResponse; where the
   * protocols differ the server asks speaksHttp2 (http2Settings.ts).
   */
  onRequest(listener: RequestListener): void;
  /**
   * Closes the HTTP/1.1 keep-alive connections that serve no request now, and tells every HTTP/2
   * connection to go away once its open streams are done.
   */
  closeIdleConnections(): void;
  /** Stops listening and ends every connection at once (watches end cleanly); resolves once closed. */
  close(): Promise<void>;
}

/** How long stopping waits for the HTTP/2 streams it ended to close before it drops their connections. */
const STREAMS_END_GRACE_MS = 1000;

const SERVER_OPTIONS = { keepAliveTimeout: 65_000, requestTimeout: 0, headersTimeout: 60_000, noDelay: true, maxHeaderSize: MAX_HEADER_BYTES };

export async function listenOnLoopback(port: number, pki: ServingPki | undefined): Promise<LoopbackListener> {
  const sockets = new Set<Socket>();
  const server = pki ? createSecureServer({ ...SERVER_OPTIONS, ...HTTP2_SERVER_OPTIONS, key: pki.serving.keyPem, cert: pki.serving.certPem }) : createHttpServer(SERVER_OPTIONS);
  // Over HTTPS, a TCP server of our own accepts and admits a few TLS handshakes at a time.
  const handshakes = pki ? gateHandshakes(server as Http2SecureServer, { key: pki.serving.keyPem, cert: pki.serving.certPem }) : undefined;
  const listener: NetServer = handshakes?.listener ?? (server as Server);
  const http2Responses = new OpenHttp2Responses(server);
  const http1Connections = new IdleHttp1Connections();
  listener.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('clientError', answerMalformedRequest);
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(port, '127.0.0.1', () => {
      listener.off('error', reject);
      resolve();
    });
  });
  return {
    server,
    port: (listener.address() as AddressInfo).port,
    onRequest: (serve) => {
      const tracked: RequestListener = (req, res) => {
        http2Responses.track(req, res);
        http1Connections.track(req, res);
        serve(req, res);
      };
      server.on('request', tracked as (...args: unknown[]) => void);
    },
    closeIdleConnections: () => {
      http1Connections.closeIdle();
      http2Responses.goAway();
    },
    close: () =>
      new Promise<void>((resolve) => {
        listener.close(() => resolve());
        if (listener !== server) server.close();
        handshakes?.dropWaiting();
        if ('closeAllConnections' in server) server.closeAllConnections();
        // HTTP/2 sessions were told to go away (server.close()); their streams end before the sockets go.
        void http2Responses.endAll(STREAMS_END_GRACE_MS).then(() => {
          for (const s of sockets) s.destroy();
        });
      }),
  };
}
