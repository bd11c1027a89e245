// A client that leaves in the middle of sending its body is not an error of the server: the sim
// logs nothing for it (a stack trace each, before), and goes on answering others.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect as tlsConnect } from 'node:tls';
import { createSimCluster, type SimCluster } from '../../../../src/sim/simCluster.ts';
import { startSimServer, type SimServerHandle } from '../../../../src/sim/server/simServer.ts';
import { call } from './httpClient.ts';

let cluster: SimCluster;
let server: SimServerHandle;
const internalErrors: string[] = [];

before(async () => {
  cluster = createSimCluster();
  server = await startSimServer(cluster, { onInternalError: (m) => internalErrors.push(m) });
});

after(async () => {
  await server.stop();
  await cluster.close();
});

it('clients that hang up halfway through a body leave no internal error behind', async () => {
  await Promise.all(Array.from({ length: 5 }, () => new Promise<void>((resolve, reject) => {
    const s = tlsConnect({ port: server.port, host: '127.0.0.1', ca: server.caPem, servername: 'localhost' }, () => {
      s.write(`POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${server.token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"metadata":`);
      setTimeout(() => {
        s.destroy();
        resolve();
      }, 100);
    });
    s.on('error', reject);
  })));
  const health = await call(server, 'GET', '/healthz');
  assert.equal(health.status, 200);
  await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(internalErrors, []);
});
