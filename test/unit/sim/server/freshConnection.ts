import { connect as tlsConnect } from 'node:tls';
import type { SimServerHandle } from '../../../../src/sim/server/simServer.ts';

/**
 * GET /healthz on a new TLS connection of its own (a pooled keep-alive one would skip the
 * handshake): the status line of the answer, once it comes.
 */
export function healthzOnNewConnection(server: SimServerHandle): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const s = tlsConnect({ port: server.port, host: '127.0.0.1', ca: server.caPem, servername: 'localhost' }, () => {
      s.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${server.token}\r\nConnection: close\r\n\r\n`);
    });
    s.once('data', (d: Buffer) => resolve(d.toString('latin1').split('\r\n')[0]!));
    s.on('error', reject);
  });
}
