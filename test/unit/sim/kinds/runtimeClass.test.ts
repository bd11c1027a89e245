// RuntimeClass (node.k8s.io/v1), served from its kind module alone: discovery, kubectl create and
// get with the v1.28 columns, a Table over HTTP, and the API server's 422s.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createSimCluster, type SimCluster } from '../../../../src/sim/simCluster.ts';
import { startSimServer, type SimServerHandle } from '../../../../src/sim/server/simServer.ts';
import { call } from '../server/httpClient.ts';

let cluster: SimCluster;
let server: SimServerHandle;

before(async () => {
  cluster = createSimCluster();
  server = await startSimServer(cluster);
});

after(async () => {
  await server.stop();
  await cluster.close();
});

const run = promisify(execFile);

async function kubectl(...args: string[]): Promise<string> {
  const { stdout } = await run('kubectl', ['--kubeconfig', server.kubeconfigPath, ...args], { timeout: 60_000 });
  return stdout;
}

async function kubectlCreate(object: unknown): Promise<{ code: number; stderr: string }> {
  const child = execFile('kubectl', ['--kubeconfig', server.kubeconfigPath, 'create', '-f', '-'], { timeout: 60_000 });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? -1)));
  child.stdin?.end(JSON.stringify(object));
  return { code: await code, stderr };
}

const RUNTIME_CLASSES = '/apis/node.k8s.io/v1/runtimeclasses';
const runtimeClass = (name: string, handler: string) => ({ apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name }, handler });

describe('RuntimeClass', () => {
  it('is in discovery as the real server lists it: cluster-scoped, every verb, no short name', async () => {
    const list = (await call(server, 'GET', '/apis/node.k8s.io/v1')).json();
    const entry = list.resources.find((r: { name: string }) => r.name === 'runtimeclasses');
    assert.deepEqual(
      { kind: entry.kind, namespaced: entry.namespaced, singularName: entry.singularName, verbs: entry.verbs },
      { kind: 'RuntimeClass', namespaced: false, singularName: 'runtimeclass', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] },
    );
    assert.match(await kubectl('api-resources', '--api-group=node.k8s.io'), /runtimeclasses\s+node\.k8s\.io\/v1\s+false\s+RuntimeClass/);
  });

  it('kubectl create and get show the HANDLER column', async () => {
    const created = await kubectlCreate(runtimeClass('gvisor', 'runsc'));
    assert.equal(created.code, 0, created.stderr);
    const table = await kubectl('get', 'runtimeclass');
    assert.match(table, /^NAME\s+HANDLER\s+AGE\n/);
    assert.match(table, /\ngvisor\s+runsc\s+\d+s\n/);
  });

  it('a Table over HTTP has the Name, Handler and Age columns', async () => {
    await call(server, 'POST', RUNTIME_CLASSES, { body: runtimeClass('kata', 'kata-qemu') });
    const table = (await call(server, 'GET', `${RUNTIME_CLASSES}/kata`, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' })).json();
    assert.deepEqual(table.columnDefinitions.map((c: { name: string }) => c.name), ['Name', 'Handler', 'Age']);
    assert.deepEqual(table.rows[0].cells.slice(0, 2), ['kata', 'kata-qemu']);
  });

  it('a handler that is no DNS label is a 422 naming `handler`, and the handler cannot change', async () => {
    const bad = await call(server, 'POST', RUNTIME_CLASSES, { body: runtimeClass('bad', 'Run_SC') });
    assert.equal(bad.status, 422, bad.body);
    assert.deepEqual(bad.json().details.causes.map((c: { reason: string; field: string }) => [c.reason, c.field]), [['FieldValueInvalid', 'handler']]);
    const rc = (await call(server, 'GET', `${RUNTIME_CLASSES}/kata`)).json();
    const changed = await call(server, 'PUT', `${RUNTIME_CLASSES}/kata`, { body: { ...rc, handler: 'kata-fc' } });
    assert.equal(changed.status, 422, changed.body);
    assert.equal(changed.json().message, 'RuntimeClass.node.k8s.io "kata" is invalid: handler: Invalid value: "kata-fc": field is immutable');
  });

  it('kubectl create refuses a runtime class without a handler with the server\'s message', async () => {
    const refused = await kubectlCreate({ apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'nohandler' } });
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /The RuntimeClass "nohandler" is invalid: handler: Invalid value: "": a lowercase RFC 1123 label/);
  });
});
