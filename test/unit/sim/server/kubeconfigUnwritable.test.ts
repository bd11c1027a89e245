import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimCluster } from '../../../../src/sim/simCluster.ts';
import { startSimServer } from '../../../../src/sim/server/simServer.ts';

// A server whose kubeconfig cannot be written is one nobody can reach: starting it fails, and
// nothing is left listening (a process that went on serving would never exit by itself).

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

test('a kubeconfig that cannot be written fails the start and stops listening', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kubeconfig-unwritable-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'file'), '');
  const cluster = createSimCluster();
  t.after(() => cluster.close());
  const port = await freePort();
  await assert.rejects(startSimServer(cluster, { port, kubeconfigOut: join(dir, 'file', 'kubeconfig') }), /ENOTDIR|EEXIST/);
  assert.ok(await refused(port), 'nothing listens on the port any more');
});
