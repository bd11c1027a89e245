// The HTTP/1.1 connections and how many requests each is serving now, so that the idle ones can be
// closed (the restart fault). Node's server.closeIdleConnections() knows only the connections of a
// server that listens itself: over HTTPS the handshake gate listens, and it closed none.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { speaksHttp2 } from './http2Settings.ts';

export class IdleHttp1Connections {
  private readonly serving = new Map<Socket, number>();

  track(req: IncomingMessage, res: ServerResponse): void {
    if (speaksHttp2(req)) return;
    const socket = req.socket;
    const count = this.serving.get(socket);
    if (count === undefined) socket.once('close', () => this.serving.delete(socket));
    this.serving.set(socket, (count ?? 0) + 1);
    res.once('close', () => {
      const left = this.serving.get(socket);
      if (left !== undefined) this.serving.set(socket, left - 1);
    });
  }

  /** Closes every connection that serves no request now. */
  closeIdle(): void {
    for (const [socket, count] of this.serving) if (count === 0) socket.destroy();
  }
}
