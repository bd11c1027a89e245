// Clients that send their ClientHello and then take their time over the rest of the handshake (Go's
// transport in a rush of watches dials a connection per waiting request and is slow to answer each)
// hold up no one: a new client, a controller's write on a connection of its own, is answered at once.
// (Each stalled one held a place for 250 ms: 800 of them, 16 places, kept a newcomer 12.5 s and
// more, on any machine; now the wait is the server's CPU for their ClientHellos, ~1 ms each: under a
// second on a quiet machine, so the bound leaves room for a busy one.)
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect as tcpConnect, type Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';
import { createSimCluster, type SimCluster } from '../../../../src/sim/simCluster.ts';
import { startSimServer, type SimServerHandle } from '../../../../src/sim/server/simServer.ts';
import { healthzOnNewConnection } from './freshConnection.ts';

const STALLED = 800;
/** Well under the 12.5 s the stalled ones held a newcomer before, by timers alone. */
const ANSWERED_WITHIN_MS = 8000;

let cluster: SimCluster;
let server: SimServerHandle;

before(async () => {
  cluster = createSimCluster();
  server = await startSimServer(cluster, { onInternalError: () => {} });
});

after(async () => {
  await server.stop();
  await cluster.close();
});

/** The first flight of a TLS client offering h2 and HTTP/1.1, as written to a socket. */
function clientHello(): Promise<Buffer> {
  return new Promise((resolve) => {
    const wire = new Duplex({
      read() {},
      // Nothing is answered: the client stays waiting, and the test process ends it with the file.
      write(chunk: Buffer) {
        resolve(chunk);
      },
    });
    const tls = tlsConnect({ socket: wire, servername: 'localhost', ALPNProtocols: ['h2', 'http/1.1'] });
    tls.on('error', () => {});
  });
}

/** A connection that sends `hello` and never answers the server's part of the handshake. */
function stalledAfter(hello: Buffer): Promise<Socket> {
  return new Promise((resolve) => {
    const s = tcpConnect(server.port, '127.0.0.1', () => s.write(hello, () => resolve(s)));
    s.on('error', () => {});
  });
}

it('connections stalled after their ClientHello hold up no one: a new client is answered within 8 s, not after their 12.5 s of timeouts', { timeout: 60_000 }, async () => {
  const hello = await clientHello();
  const stalled = await Promise.all(Array.from({ length: STALLED }, () => stalledAfter(hello)));
  try {
    const started = Date.now();
    const head = await healthzOnNewConnection(server);
    assert.equal(head, 'HTTP/1.1 200 OK');
    const tookMs = Date.now() - started;
    assert.ok(tookMs < ANSWERED_WITHIN_MS, `answered in ${tookMs} ms behind ${STALLED} handshakes stalled after their ClientHello`);
  } finally {
    for (const s of stalled) s.destroy();
  }
});
