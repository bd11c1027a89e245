// The reference: etcd, kube-apiserver and kube-controller-manager v1.28.4 on loopback, set up as
// a small real control plane (RBAC, a service-account signing key, the default admission
// plugins), with no nodes: the e2e run's --num-nodes=0.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { binary } from './paths.mjs';
import { ETCD } from './etcd.mjs';
import { freePort, start, stop, waitFor } from './processes.mjs';
import { get, writeKubeconfig } from './kubeconfig.mjs';

/**
 * The address the API server listens on and advertises. Not loopback: the server puts it in the
 * `default/kubernetes` Endpoints, whose validation refuses 127.0.0.0/8, and a spec checks them.
 */
function hostAddress() {
  const found = Object.values(networkInterfaces()).flat().find((a) => a && a.family === 'IPv4' && !a.internal);
  if (!found) throw new Error('no non-loopback IPv4 address to advertise the API server on');
  return found.address;
}

/**
 * controllerManager: false gives kube-apiserver alone, as envtest runs it. apiServerArgs are added
 * to kube-apiserver's own (e.g. --watch-cache=false).
 */
export async function startRealCluster(dir, log = console.log, { controllerManager = true, apiServerArgs = [] } = {}) {
  mkdirSync(join(dir, 'pki'), { recursive: true });
  const [etcdPort, peerPort, apiPort] = [await freePort(), await freePort(), await freePort()];

  const etcdUrl = `http://127.0.0.1:${etcdPort}`;
  const peerUrl = `http://127.0.0.1:${peerPort}`;
  const etcd = start(ETCD, [
    '--name=conformance', `--data-dir=${join(dir, 'etcd')}`,
    `--listen-client-urls=${etcdUrl}`, `--advertise-client-urls=${etcdUrl}`,
    `--listen-peer-urls=${peerUrl}`, `--initial-advertise-peer-urls=${peerUrl}`,
    `--initial-cluster=conformance=${peerUrl}`,
  ], { log: join(dir, 'etcd.log') });
  await waitFor('etcd', async () => (await fetch(`${etcdUrl}/health`)).ok, { child: etcd });
  log(`etcd on ${etcdUrl}`);

  // Service-account tokens are signed with this key and verified with its public half.
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const saKey = join(dir, 'pki', 'sa.key');
  const saPub = join(dir, 'pki', 'sa.pub');
  writeFileSync(saKey, privateKey.export({ type: 'pkcs1', format: 'pem' }), { mode: 0o600 });
  writeFileSync(saPub, publicKey.export({ type: 'spki', format: 'pem' }));
  const token = randomBytes(24).toString('hex');
  writeFileSync(join(dir, 'tokens.csv'), `${token},admin,,"system:masters"\n`, { mode: 0o600 });

  const address = hostAddress();
  const server = `https://${address}:${apiPort}`;
  // Without --tls-cert-file the server makes a CA and a serving certificate in --cert-dir; the
  // bundle it writes is what clients and kube-root-ca.crt trust.
  const caFile = join(dir, 'pki', `apiserver.crt`);
  const apiserverArgs = [
    `--etcd-servers=${etcdUrl}`,
    `--bind-address=${address}`, `--advertise-address=${address}`, `--secure-port=${apiPort}`,
    `--cert-dir=${join(dir, 'pki')}`,
    `--token-auth-file=${join(dir, 'tokens.csv')}`,
    '--authorization-mode=RBAC',
    `--service-account-key-file=${saPub}`, `--service-account-signing-key-file=${saKey}`,
    '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
    '--service-cluster-ip-range=10.96.0.0/16',
    '--allow-privileged=true',
    '--profiling=false',
    ...apiServerArgs,
  ];
  const startApiServer = async () => {
    const child = start(binary('kube-apiserver'), apiserverArgs, { log: join(dir, 'kube-apiserver.log') });
    await waitFor('kube-apiserver /readyz', async () => (await get(server, '/readyz', { token })).status === 200, { child, timeoutMs: 180_000 });
    return child;
  };
  let apiserver = await startApiServer();
  log(`kube-apiserver on ${server}`);
  /**
   * Stops kube-apiserver and starts it again on the same port and etcd, as a control-plane
   * upgrade does: its watch caches start over from etcd's current revision, so a watch resuming
   * from an older resourceVersion is answered 410 "too old resource version".
   */
  const restartApiServer = async () => {
    await stop(apiserver);
    apiserver = await startApiServer();
  };

  const kubeconfig = join(dir, 'kubeconfig');
  writeKubeconfig(kubeconfig, { server, caFile, token });
  if (!controllerManager) return { kubeconfig, server, token, caFile, etcdUrl, restartApiServer };

  const kcm = start(binary('kube-controller-manager'), [
    `--kubeconfig=${kubeconfig}`,
    '--leader-elect=false',
    '--secure-port=0',
    '--use-service-account-credentials=true',
    `--service-account-private-key-file=${saKey}`,
    `--root-ca-file=${caFile}`,
    '--profiling=false',
  ], { log: join(dir, 'kube-controller-manager.log') });
  // Its service-account controller making `default` in `default` shows its controllers run.
  await waitFor('kube-controller-manager', async () =>
    (await get(server, '/api/v1/namespaces/default/serviceaccounts/default', { token, caFile })).status === 200,
    { child: kcm, timeoutMs: 180_000 });
  log('kube-controller-manager running');
  return { kubeconfig, server, token, caFile, etcdUrl, restartApiServer };
}
