import { connect, type Socket } from 'node:net';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { TypedEmitter } from '../../runtime/index.ts';

// A Debug Adapter Protocol client over TCP: what we speak to `dlv dap`. Delve is itself a debug
// adapter, so the Go side needs no translation layer: requests go out as DAP, events come back as
// DAP (framed with Content-Length headers, as on stdio).

export interface DelveConnectionEvents extends Record<string, unknown> {
  event: DebugProtocol.Event;
  /** The connection closed (Delve exited or hung up); pending requests have been rejected. */
  closed: { reason: string };
}

export class DelveRequestError extends Error {
  readonly command: string;

  constructor(command: string, message: string) {
    super(`delve ${command}: ${message}`);
    this.command = command;
  }
}

interface Pending {
  command: string;
  resolve: (r: DebugProtocol.Response) => void;
  reject: (e: Error) => void;
}

export class DelveConnection extends TypedEmitter<DelveConnectionEvents> {
  private seq = 1;
  private buffer = Buffer.alloc(0);
  private readonly pending = new Map<number, Pending>();
  private closedReason: string | undefined;
  private readonly socket: Socket;

  private constructor(socket: Socket) {
    super();
    this.socket = socket;
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', (err) => this.close(err.message));
    socket.on('close', () => this.close('connection closed'));
  }

  static open(host: string, port: number, timeoutMs = 10_000): Promise<DelveConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host, port });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`could not connect to Delve at ${host}:${port} within ${timeoutMs} ms`));
      }, timeoutMs);
      socket.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        resolve(new DelveConnection(socket));
      });
    });
  }

  get closed(): boolean {
    return this.closedReason !== undefined;
  }

  /** Sends a request; resolves with the response, rejects when Delve answers success: false. */
  request<R extends DebugProtocol.Response = DebugProtocol.Response>(command: string, args?: unknown): Promise<R> {
    if (this.closedReason !== undefined) return Promise.reject(new DelveRequestError(command, this.closedReason));
    const seq = this.seq++;
    const message = JSON.stringify({ seq, type: 'request', command, arguments: args });
    return new Promise<R>((resolve, reject) => {
      this.pending.set(seq, { command, resolve: resolve as (r: DebugProtocol.Response) => void, reject });
      this.socket.write(`Content-Length: ${Buffer.byteLength(message)}\r\n\r\n${message}`);
    });
  }

  /** Resolves with the next event of that name (and, if given, matching the test). */
  waitForEvent<E extends DebugProtocol.Event>(name: string, timeoutMs: number, test: (e: E) => boolean = () => true): Promise<E> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        sub.dispose();
        closed.dispose();
        reject(new Error(`Delve sent no ${name} event within ${timeoutMs} ms`));
      }, timeoutMs);
      const sub = this.on('event', (e) => {
        if (e.event !== name || !test(e as E)) return;
        clearTimeout(timer);
        sub.dispose();
        closed.dispose();
        resolve(e as E);
      });
      const closed = this.on('closed', ({ reason }) => {
        clearTimeout(timer);
        sub.dispose();
        closed.dispose();
        reject(new Error(`Delve closed the connection before a ${name} event: ${reason}`));
      });
    });
  }

  dispose(): void {
    this.socket.destroy();
    this.close('disposed');
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const header = this.buffer.subarray(0, headerEnd).toString('ascii');
      const length = Number(/Content-Length:\s*(\d+)/i.exec(header)?.[1]);
      if (!Number.isFinite(length)) {
        this.socket.destroy();
        this.close(`bad header from Delve: ${header}`);
        return;
      }
      const start = headerEnd + 4;
      if (this.buffer.length < start + length) return;
      const body = this.buffer.subarray(start, start + length).toString('utf8');
      this.buffer = this.buffer.subarray(start + length);
      let message: DebugProtocol.ProtocolMessage;
      try {
        message = JSON.parse(body) as DebugProtocol.ProtocolMessage;
      } catch {
        continue;
      }
      this.dispatch(message);
    }
  }

  private dispatch(message: DebugProtocol.ProtocolMessage): void {
    if (message.type === 'event') {
      this.emit('event', message as DebugProtocol.Event);
    } else if (message.type === 'response') {
      const response = message as DebugProtocol.Response;
      const pending = this.pending.get(response.request_seq);
      if (!pending) return;
      this.pending.delete(response.request_seq);
      if (response.success) pending.resolve(response);
      else pending.reject(new DelveRequestError(pending.command, response.message ?? 'failed'));
    }
    // Delve sends no reverse requests to a client that does not announce support for them.
  }

  private close(reason: string): void {
    if (this.closedReason !== undefined) return;
    this.closedReason = reason;
    for (const p of this.pending.values()) p.reject(new DelveRequestError(p.command, reason));
    this.pending.clear();
    this.emit('closed', { reason });
  }
}
