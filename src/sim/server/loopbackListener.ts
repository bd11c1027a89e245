import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo, Server as NetServer, Socket } from 'node:net';
import type { ServingPki } from '../tls/certificates.ts';
import { answerMalformedRequest, MAX_HEADER_BYTES } from './malformedRequests.ts';
import { gateHandshakes } from './tlsHandshakeGate.ts';

// The server listening on 127.0.0.1 only: HTTPS behind a gate that admits a few TLS handshakes at
// a time (or plain HTTP), every connection tracked so that closing ends them all. Its requests go
// to the 'request' listener the caller adds (before it next awaits, so no request is missed).

export interface LoopbackListener {
  readonly server: Server;
  readonly port: number;
  /** Stops listening and ends every connection at once (watches end cleanly); resolves once closed. */
  close(): Promise<void>;
}

const SERVER_OPTIONS = { keepAliveTimeout: 65_000, requestTimeout: 0, headersTimeout: 60_000, noDelay: true, maxHeaderSize: MAX_HEADER_BYTES };

export async function listenOnLoopback(port: number, pki: ServingPki | undefined): Promise<LoopbackListener> {
  const sockets = new Set<Socket>();
  const server: Server = pki ? createHttpsServer({ ...SERVER_OPTIONS, key: pki.serving.keyPem, cert: pki.serving.certPem }) : createHttpServer(SERVER_OPTIONS);
  // Over HTTPS, a TCP server of our own accepts and admits a few TLS handshakes at a time.
  const handshakes = pki ? gateHandshakes(server as HttpsServer, { key: pki.serving.keyPem, cert: pki.serving.certPem }) : undefined;
  const listener: NetServer = handshakes?.listener ?? server;
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
    close: () =>
      new Promise<void>((resolve) => {
        listener.close(() => resolve());
        if (listener !== server) server.close();
        handshakes?.dropWaiting();
        server.closeAllConnections();
        for (const s of sockets) s.destroy();
      }),
  };
}
