// Accepts TCP connections for an HTTPS server and lets only a few of them handshake in each turn of
// the event loop. A TLS handshake is synchronous CPU on the event loop (key exchange and signature,
// ~0.2–0.5 ms, all of it when the ClientHello is read), and Node runs every handshake whose
// ClientHello arrived in the same poll of the loop back to back: 250 clients reconnecting together
// stalled the loop (health checks included) for 50–75 ms of CPU. Connections beyond the bound wait,
// their first bytes read but not decrypted, and are admitted in the turns after; connections
// already open (keep-alive clients, a health prober) are not held up at all. A place is held for one
// turn only, not until the client finishes its handshake: what is left of it is the client's work,
// and a busy client (Go's transport dials a connection per waiting request, a thousand at a time,
// and takes a second or more to answer each) would otherwise keep newcomers, a controller's write
// among them, waiting behind it. A connection joins the queue only once its ClientHello starts to
// arrive: a thousand that connect and say nothing take no place in it.
import { createServer, type Server, type Socket } from 'node:net';
import type { Http2SecureServer } from 'node:http2';
import { createSecureContext, TLSSocket } from 'node:tls';
import { Deque } from '../store/deque.ts';
import { ALPN_PROTOCOLS } from './http2Settings.ts';

/** Handshakes begun in one turn of the event loop. Each costs ~0.2–0.5 ms of CPU when its ClientHello is read. */
export const DEFAULT_CONCURRENT_HANDSHAKES = 16;
/** A connection still not secured after this long is closed (Node's TLS server waits 120 s). */
const HANDSHAKE_TIMEOUT_MS = 30_000;

export interface HandshakeGate {
  /** The listening TCP server (listen on it; the HTTPS server itself never listens). */
  readonly listener: Server;
  /** Connections accepted and not yet admitted to a handshake. */
  readonly waiting: number;
  /** Handshakes begun in this turn of the event loop (counted against the bound). */
  readonly handshaking: number;
  /** Destroys the connections still waiting. */
  dropWaiting(): void;
}

export interface GateOptions {
  key: string;
  cert: string;
  /** Default DEFAULT_CONCURRENT_HANDSHAKES. */
  concurrentHandshakes?: number;
}

/** Connections accepted by the returned listener reach `https` ('secureConnection') once their handshake is done. */
export function gateHandshakes(https: Http2SecureServer, options: GateOptions): HandshakeGate {
  const limit = options.concurrentHandshakes ?? DEFAULT_CONCURRENT_HANDSHAKES;
  const context = createSecureContext({ key: options.key, cert: options.cert });
  const waiting = new Deque<Socket>();
  let handshaking = 0;

  const handshake = (raw: Socket): void => {
    handshaking++;
    // The ClientHello read so far is handled on the next tick (TLSSocket's first read), before this
    // immediate: the place is given back once the server's part of the handshake is done.
    setImmediate(() => {
      handshaking--;
      admitNext();
    });
    // As kube-apiserver: h2 for the clients that offer it (client-go, kubectl), else HTTP/1.1.
    const tls = new TLSSocket(raw, { isServer: true, secureContext: context, server: https, ALPNProtocols: ALPN_PROTOCOLS });
    const giveUp = setTimeout(() => tls.destroy(), HANDSHAKE_TIMEOUT_MS);
    const onError = (): void => {
      tls.destroy();
    };
    tls.on('error', onError);
    tls.once('close', () => clearTimeout(giveUp));
    tls.once('secure', () => {
      clearTimeout(giveUp);
      tls.off('error', onError);
      // What Node's TLS server does with a secured connection: the HTTP server takes it from here.
      // An HTTP/2 session waits for 'secureConnect' from a socket still marked as securing, which a
      // server's socket never emits: the mark goes first, as Node's TLS server clears it.
      (tls as TLSSocket & { secureConnecting: boolean }).secureConnecting = false;
      https.emit('secureConnection', tls);
    });
  };

  const admitNext = (): void => {
    while (handshaking < limit && waiting.length > 0) {
      const raw = waiting.shift()!;
      if (!raw.destroyed) handshake(raw);
    }
  };

  // The first chunk (the ClientHello, or its start) is read and put back for the TLS socket, which
  // takes buffered bytes first; nothing is decrypted until the connection is admitted.
  const listener = createServer({ pauseOnConnect: true, noDelay: true }, (raw) => {
    raw.on('error', () => raw.destroy());
    const silent = setTimeout(() => raw.destroy(), HANDSHAKE_TIMEOUT_MS);
    raw.once('close', () => clearTimeout(silent));
    raw.once('data', (first: Buffer) => {
      clearTimeout(silent);
      raw.pause();
      raw.unshift(first);
      waiting.push(raw);
      admitNext();
    });
    raw.resume();
  });
  return {
    listener,
    get waiting() {
      return waiting.length;
    },
    get handshaking() {
      return handshaking;
    },
    dropWaiting() {
      while (waiting.length > 0) waiting.shift()!.destroy();
    },
  };
}
