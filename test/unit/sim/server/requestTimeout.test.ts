// A client that trickles its request body (slowloris) holds a mutating seat only until the request
// timeout: then it is answered 504 with kube-apiserver's Timeout Status, its connection closes, and
// the seat is free for the next write.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { FakeClock } from '../../../../src/shared/clock.ts';
import { createSimCluster, type SimCluster } from '../../../../src/sim/simCluster.ts';
import { startSimServer, type SimServerHandle } from '../../../../src/sim/server/simServer.ts';
import { call } from './httpClient.ts';

const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';
let cluster: SimCluster;
let server: SimServerHandle;

before(async () => {
  cluster = createSimCluster({ clock: new FakeClock(Date.parse('2026-01-01T00:00:00Z')) });
  server = await startSimServer(cluster, { insecureHttp: true, maxRequestsInFlight: { mutating: 1 }, requestTimeoutMs: 500 });
});

after(async () => {
  await server.stop();
  await cluster.close();
});

/** Starts a POST whose body never finishes; resolves with what the server answered and when the socket closed. */
function trickledPost(): Promise<{ answer: string; closed: boolean }> {
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = connect(server.port, '127.0.0.1', () => {
      socket.write(`POST ${CONFIGMAPS} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${server.token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"metadata":`);
    });
    const drip = setInterval(() => socket.write(' '), 100);
    socket.setEncoding('utf8').on('data', (d: string) => (answer += d));
    socket.on('close', () => {
      clearInterval(drip);
      resolve({ answer, closed: true });
    });
    socket.on('error', (err) => {
      clearInterval(drip);
      if (answer) resolve({ answer, closed: true });
      else reject(err);
    });
  });
}

it('answers a body that has not arrived within the request timeout 504 Timeout, closes it, and frees its seat', async () => {
  const slow = trickledPost();
  // While the slow body holds the one mutating seat, another write waits its turn: 429.
  await new Promise((r) => setTimeout(r, 150));
  const blocked = await call(server, 'POST', CONFIGMAPS, { body: { metadata: { name: 'blocked' } } });
  assert.equal(blocked.status, 429);

  const { answer, closed } = await slow;
  assert.match(answer, /^HTTP\/1\.1 504 /);
  assert.match(answer, /"reason":"Timeout"/);
  assert.match(answer, /request did not complete within requested timeout/);
  assert.ok(closed);

  const after = await call(server, 'POST', CONFIGMAPS, { body: { metadata: { name: 'after' } } });
  assert.equal(after.status, 201, after.body);
});
