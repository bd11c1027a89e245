// Accepts TCP connections for an HTTPS server and lets only a few of them handshake at once. A TLS
// handshake is synchronous CPU on the event loop (key exchange and signature, ~0.5 ms), and Node
// runs every handshake whose ClientHello arrived in the same poll of the loop back to back: 250
// clients reconnecting together stalled the loop (health checks included) for 50–75 ms of CPU.
// Connections beyond the bound wait, their first bytes read but not decrypted, and are admitted as
// handshakes finish; connections already open (keep-alive clients, a health prober) are not held up
// at all. A connection joins the queue only once its ClientHello starts to arrive: a thousand that
// connect and say nothing take no place in it (each waiting would otherwise hold up every newcomer),
// and one that stalls mid-handshake holds its place for a moment only.
import { createServer, type Server, type Socket } from 'node:net';
import type { Http2SecureServer } from 'node:http2';
import { createSecureContext, TLSSocket } from 'node:tls';
import { Deque } from '../store/deque.ts';
import { ALPN_PROTOCOLS } from './http2Settings.ts';

/** Handshakes in progress at once. Each costs ~0.5 ms of CPU when its ClientHello arrives. */
export const DEFAULT_CONCURRENT_HANDSHAKES = 16;
/** How long a handshake counts against the bound at most (a slow client keeps its connection, not its place). */
const PLACE_MS = 250;
/** A connection still not secured after this long is closed (Node's TLS server waits 120 s). */
const HANDSHAKE_TIMEOUT_MS = 30_000;

export interface HandshakeGate {
  /** The listening TCP server (listen on it; the HTTPS server itself never listens). */
  readonly listener: Server;
  /** Connections accepted and not yet admitted to a handshake. */
  readonly waiting: number;
  /** Handshakes counted against the bound now. */
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
    let counted = true;
    const release = (): void => {
      if (!counted) return;
      counted = false;
      handshaking--;
      admitNext();
    };
    // As kube-apiserver: h2 for the clients that offer it (client-go, kubectl), else HTTP/1.1.
    const tls = new TLSSocket(raw, { isServer: true, secureContext: context, server: https, ALPNProtocols: ALPN_PROTOCOLS });
    const place = setTimeout(release, PLACE_MS);
    const giveUp = setTimeout(() => tls.destroy(), HANDSHAKE_TIMEOUT_MS);
    const onError = (): void => {
      tls.destroy();
    };
    tls.on('error', onError);
    tls.once('close', () => {
      clearTimeout(place);
      clearTimeout(giveUp);
      release();
    });
    tls.once('secure', () => {
      clearTimeout(place);
      clearTimeout(giveUp);
      release();
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
