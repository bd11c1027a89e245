import type { Socket } from 'node:net';
import { failureStatus } from './status.ts';

// What a request Node's HTTP parser refuses is answered: a Status, not an empty 400. Request line
// and headers may take what Go's net/http lets kube-apiserver take (1 MiB, DefaultMaxHeaderBytes),
// so a URL of 100 KB (a long label selector) is served as there; past that, 431.

export const MAX_HEADER_BYTES = 1024 * 1024;

/** The raw HTTP answer to a request that could not be parsed (`code`: Node's parser error code). */
export function malformedRequestAnswer(code: string | undefined): string {
  const status = code === 'HPE_HEADER_OVERFLOW'
    ? failureStatus(431, `Request Header Fields Too Large: the request line and headers may take at most ${MAX_HEADER_BYTES} bytes`, 'RequestHeaderFieldsTooLarge')
    : failureStatus(400, `Bad Request: the request could not be parsed as HTTP/1.1 (${code ?? 'malformed'})`);
  const body = JSON.stringify(status);
  const phrase = status.code === 431 ? 'Request Header Fields Too Large' : 'Bad Request';
  return `HTTP/1.1 ${status.code} ${phrase}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

/** How long what the client still sends is read and dropped after the answer, as Go's server waits before closing. */
const DRAIN_MS = 500;

/** The server's 'clientError' listener. */
export function answerMalformedRequest(err: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(malformedRequestAnswer(err.code));
  // Closing with the rest of a long request unread would reset the connection, and the client
  // would lose the answer: read it away first.
  socket.on('data', () => undefined);
  socket.resume();
  setTimeout(() => socket.destroy(), DRAIN_MS).unref();
}
