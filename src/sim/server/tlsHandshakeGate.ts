// Accepts TCP connections for an HTTPS server and lets only a few of them handshake at once. A TLS
// handshake is synchronous CPU on the event loop (key exchange and signature, ~0.5 ms), and Node
// runs every handshake whose ClientHello arrived in the same poll of the loop back to back: 250
// clients reconnecting together stalled the loop (health checks included) for 50–75 ms of CPU.
// Connections beyond the bound wait, accepted but unread, and are admitted as handshakes finish;
// connections already open (keep-alive clients, the health prober) are not held up at all.
import { createServer, type Server, type Socket } from 'node:net';
import type { Server as HttpsServer } from 'node:https';
import { Deque } from '../store/deque.ts';

/** Handshakes in progress at once. Each costs ~0.5 ms of CPU when its ClientHello arrives. */
export const DEFAULT_CONCURRENT_HANDSHAKES = 16;

export interface HandshakeGate {
  /** The listening TCP server (listen on it; the HTTPS server itself never listens). */
  readonly listener: Server;
  /** Connections accepted and not yet admitted to a handshake. */
  readonly waiting: number;
  /** Destroys the connections still waiting. */
  dropWaiting(): void;
}

export function gateHandshakes(https: HttpsServer, limit = DEFAULT_CONCURRENT_HANDSHAKES): HandshakeGate {
  const waiting = new Deque<Socket>();
  let handshaking = 0;

  const admitNext = (): void => {
    while (handshaking < limit && waiting.length > 0) {
      const socket = waiting.shift()!;
      if (socket.destroyed) continue;
      handshaking++;
      // The TLS server wraps the socket and reads it from here on; it answers each admitted
      // connection with exactly one of 'secureConnection' and 'tlsClientError'.
      https.emit('connection', socket);
    }
  };
  const finished = (): void => {
    handshaking--;
    admitNext();
  };
  https.on('secureConnection', finished);
  https.on('tlsClientError', (_err: Error, socket: Socket) => {
    socket.destroy();
    finished();
  });

  // Paused on accept: nothing is read (so nothing is decrypted) until the connection is admitted.
  const listener = createServer({ pauseOnConnect: true, noDelay: true }, (socket) => {
    socket.on('error', () => socket.destroy());
    waiting.push(socket);
    admitNext();
  });
  return {
    listener,
    get waiting() {
      return waiting.length;
    },
    dropWaiting() {
      while (waiting.length > 0) waiting.shift()!.destroy();
    },
  };
}
