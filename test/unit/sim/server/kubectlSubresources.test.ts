// kubectl's own commands for the subresources, against the sim over HTTPS: `kubectl create token`,
// `kubectl certificate approve` and `kubectl drain` (evictions).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createSimCluster, type SimCluster } from '../../../../src/sim/simCluster.ts';
import { startSimServer, type SimServerHandle } from '../../../../src/sim/server/simServer.ts';
import { call } from './httpClient.ts';

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

async function kubectl(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)('kubectl', ['--kubeconfig', server.kubeconfigPath, ...args], { timeout: 60_000 });
  return stdout;
}

async function apply(object: unknown): Promise<void> {
  const child = execFile('kubectl', ['--kubeconfig', server.kubeconfigPath, 'create', '-f', '-'], { timeout: 60_000 });
  const done = new Promise<void>((resolve, reject) => child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`kubectl create exited ${code}`)))));
  child.stdin?.end(JSON.stringify(object));
  await done;
}

const PEM = `-----BEGIN CERTIFICATE REQUEST-----
MIHZMIGAAgEAMB4xDjAMBgNVBAMMBWFsaWNlMQwwCgYDVQQKDANkZXYwWTATBgcq
hkjOPQIBBggqhkjOPQMBBwNCAARJ3JJKfWKULxCeQCpzQnNbr0BVumZ9RtxWgfgV
jy/m+c07LvmaReU3xsGjCrrNoFn5kxEfFe9wLDryDsOAIrGhoAAwCgYIKoZIzj0E
AwIDSAAwRQIhAIET+qQo1vlYz/o/LqWsV5ws1MpULJruz8j/tvneYb3GAiBv3iuM
2Fp+WVYSH2/9Qz13/gt/XQS08jVFW6Aofcsg3g==
-----END CERTIFICATE REQUEST-----
`;

describe('kubectl against the subresources', () => {
  it('`kubectl create token` prints a token the server then authenticates as the ServiceAccount', async () => {
    await kubectl('create', 'serviceaccount', 'builder', '-n', 'default');
    const token = (await kubectl('create', 'token', 'builder', '-n', 'default', '--duration', '20m')).trim();
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
    assert.equal(payload.sub, 'system:serviceaccount:default:builder');
    assert.equal(payload.exp - payload.iat, 1200);
    // Accepted as the ServiceAccount, which no binding lets list Pods yet.
    const pods = await call(server, 'GET', '/api/v1/namespaces/default/pods', { token });
    assert.equal(pods.status, 403);
    assert.equal(pods.json().message, 'pods is forbidden: User "system:serviceaccount:default:builder" cannot list resource "pods" in API group "" in the namespace "default"');
  });

  it('`kubectl certificate approve` approves a CSR and `kubectl get csr` shows it', async () => {
    await apply({
      apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'alice' },
      spec: { request: Buffer.from(PEM).toString('base64'), signerName: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'] },
    });
    assert.match(await kubectl('get', 'csr', 'alice'), /alice\s+\S+\s+kubernetes\.io\/kube-apiserver-client\s+controller-lab\s+<none>\s+Pending/);
    await kubectl('certificate', 'approve', 'alice');
    assert.match(await kubectl('get', 'csr', 'alice'), /\s+Approved\n/);
    const conditions = JSON.parse(await kubectl('get', 'csr', 'alice', '-o', 'json')).status.conditions;
    assert.equal(conditions[0].type, 'Approved');
    assert.equal(conditions[0].reason, 'KubectlApprove');
  });

  it('`kubectl explain` describes the new kinds from the OpenAPI documents', async () => {
    assert.match(await kubectl('explain', 'csr.spec.signerName'), /signerName indicates the requested signer/);
    assert.match(await kubectl('explain', 'events.regarding', '--api-version=events.k8s.io/v1'), /KIND:\s+Event/);
  });

  it('`kubectl drain` cordons a Node and evicts its Pods', async () => {
    await apply({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'worker-1' } });
    for (const name of ['a', 'b']) {
      await apply({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `drained-${name}`, namespace: 'default' }, spec: { nodeName: 'worker-1', containers: [{ name: 'c', image: 'busybox' }] } });
    }
    const out = await kubectl('drain', 'worker-1', '--force', '--ignore-daemonsets', '--timeout', '30s');
    assert.match(out, /evicting pod default\/drained-a/);
    assert.match(out, /node\/worker-1 drained/);
    const pods = JSON.parse(await kubectl('get', 'pods', '-n', 'default', '-o', 'json')).items as { metadata: { name: string } }[];
    assert.deepEqual(pods.filter((p) => p.metadata.name.startsWith('drained-')), []);
    assert.equal(JSON.parse(await kubectl('get', 'node', 'worker-1', '-o', 'json')).spec.unschedulable, true);
  });
});
