// The HTTP/2 responses open now, so that stopping the server ends each one's stream first: a watch
// ends with the end of its stream, which client-go takes as a watch to resume from its last
// resourceVersion; destroying the connection under it instead reads as a connection lost. (An
// HTTP/1.1 watch ends with its connection: that is its end of stream.)
import type { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServerHttp2Session } from 'node:http2';
import { speaksHttp2 } from './http2Settings.ts';

export class OpenHttp2Responses {
  private readonly open = new Set<ServerResponse>();
  private readonly sessions = new Set<ServerHttp2Session>();

  /** Follows the sessions of `server` (an HTTP/2 server's 'session' events). */
  constructor(server: EventEmitter) {
    server.on('session', (session: ServerHttp2Session) => {
      this.sessions.add(session);
      session.once('close', () => this.sessions.delete(session));
    });
  }

  track(req: IncomingMessage, res: ServerResponse): void {
    if (!speaksHttp2(req)) return;
    this.open.add(res);
    res.once('close', () => this.open.delete(res));
  }

  /**
   * Tells every session to go away (GOAWAY): the streams open on it finish, and its client opens a
   * new connection for what it asks next, as after kube-apiserver restarted.
   */
  goAway(): void {
    for (const session of this.sessions) session.close();
  }

  /**
   * Ends every open stream (one whose answer has not started is reset) and closes every session
   * once its streams are done (GOAWAY, then the connection, its last frames written); resolves once
   * they are closed, or after `graceMs` at most.
   */
  endAll(graceMs: number): Promise<void> {
    if (this.sessions.size === 0) return Promise.resolve();
    const closed = [...this.sessions].map((session) => new Promise<void>((resolve) => session.once('close', () => resolve())));
    for (const res of this.open) {
      if (res.headersSent) res.end();
      else res.destroy();
    }
    for (const session of this.sessions) session.close();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    return Promise.race([Promise.all(closed).then(() => undefined), late]).finally(() => clearTimeout(timer));
  }
}
