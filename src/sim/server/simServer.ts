// The simulated cluster over HTTPS, so kubectl, client-go, client-node and any controller can use it
// with a generated kubeconfig. 127.0.0.1 only; a bearer token is required on every request.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startControlPlane } from '../bootstrap/controlPlane.ts';
import { OpenApiService } from '../openapi/openApiService.ts';
import type { SimClusterApi } from '../simCluster.ts';
import { loadOrCreatePki, type ServingPki } from '../tls/certificates.ts';
import { renderKubeconfig, writeKubeconfig } from '../tls/kubeconfig.ts';
import { ClientContexts } from './clientContexts.ts';
import { DiscoveryDocuments } from './discovery.ts';
import { HttpFaults } from './httpFaults.ts';
import { collectGarbageWhenIdle } from './idleCollection.ts';
import { DEFAULT_IN_FLIGHT_LIMITS, InFlightLimiter, type InFlightLimits } from './inFlightLimit.ts';
import { listenOnLoopback } from './loopbackListener.ts';
import { DEFAULT_REQUEST_TIMEOUT_MS } from './requestBody.ts';
import { requestIntake } from './requestIntake.ts';
import { ADMIN_PREFIX } from './requestPath.ts';
import { createRouter } from './requestRouter.ts';
import { serverCredentials } from './serverCredentials.ts';
import { versionInfo } from './versionInfo.ts';
import { acceptLossHint } from '../vocabulary/stateLoss.ts';

// Starting it is a few named steps: its credentials (token, service account tokens, RBAC) and
// TLS; what serves a request (serverCredentials.ts, requestIntake.ts, requestRouter.ts); listening
// on loopback (loopbackListener.ts); the control plane, once the address and CA are known; and the
// kubeconfig that points at it all.

const CRDS = { group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' };

export interface SimServerOptions {
  /** 0 (default): a free port. */
  port?: number;
  /** Run kube-controller-manager's built-in controllers beside the API server (default true; false: as envtest). */
  controllerManager?: boolean;
  /** Only loopback is served. */
  host?: '127.0.0.1';
  /** Plain HTTP instead of HTTPS (the token is still required). */
  insecureHttp?: boolean;
  /** Default: the one kept in `stateDir` (made there on first start), else 32 random bytes, base64url. */
  token?: string;
  /** Where to write the kubeconfig. Default: `<stateDir>/kubeconfig`, else a new temp dir. */
  kubeconfigOut?: string;
  /** Keeps the CA (so kubeconfigs stay valid across restarts) and, by default, the kubeconfig. */
  stateDir?: string;
  /** A damaged CA or token in `stateDir` is replaced instead of stopping the start (the loss said as the cluster says its own). */
  acceptStateLoss?: boolean;
  /** Run a full garbage collection when the server goes quiet with a grown heap (a process of its own: the CLI's sim). */
  collectGarbageWhenIdle?: boolean;
  /** What /version reports. Default v1.28.4. */
  serverVersion?: string;
  /** Told about bugs (non-API errors answered as 500). Default: a line on stderr. */
  onInternalError?: (message: string) => void;
  /** Requests served at once before 429 (kube-apiserver's max-requests-inflight). Default 400 read-only, 200 mutating. */
  maxRequestsInFlight?: Partial<InFlightLimits>;
  /** How long a request body may take to arrive before 504 (kube-apiserver's --request-timeout). Default 60 s. */
  requestTimeoutMs?: number;
}

export interface SimServerHandle {
  /** https://127.0.0.1:PORT (http:// with insecureHttp). */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  /** The CA that signed the serving certificate ('' with insecureHttp). */
  readonly caPem: string;
  readonly kubeconfigPath: string;
  readonly kubeconfig: string;
  /** `${url}/controller-lab/admin`: faults and client insight over HTTP. */
  readonly adminUrl: string;
  readonly cluster: SimClusterApi;
  /** Stops listening, ends every connection (watches end cleanly) and removes the scratch kubeconfig folder. The cluster stays open. */
  stop(): Promise<void>;
}

export async function startSimServer(cluster: SimClusterApi, options: SimServerOptions = {}): Promise<SimServerHandle> {
  const credentials = await serverCredentials(cluster, options);
  const madeBefore = credentials.keptTokenFile ? [credentials.keptTokenFile] : [];
  const pki = options.insecureHttp ? undefined : await loadOrCreatePki(options.stateDir, new Date(), options.acceptStateLoss, options.stateDir ? acceptLossHint(options.stateDir) : '', madeBefore);
  if (pki?.loss) cluster.stateLossAccepted(pki.loss);
  const serverVersion = versionInfo(options.serverVersion);
  const httpFaults = new HttpFaults(cluster.faults);
  const contexts = new ClientContexts(credentials.auth.tokenId);
  const listening = await listenOnLoopback(options.port ?? 0, pki);
  const discovery = new DiscoveryDocuments(cluster.resources, () => `127.0.0.1:${listening.port}`);
  const route = createRouter({
    cluster, credentials, contexts, discovery, httpFaults,
    openapi: openApiServiceFor(cluster, serverVersion.gitVersion),
    versionJson: JSON.stringify(serverVersion),
    onRestart: () => setImmediate(() => listening.closeIdleConnections()),
  });
  listening.onRequest(requestIntake({
    cluster, credentials, contexts, route,
    inFlight: new InFlightLimiter({ ...DEFAULT_IN_FLIGHT_LIMITS, ...options.maxRequestsInFlight }),
    requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    reportInternalError: options.onInternalError ?? ((message: string) => process.stderr.write(`controller-lab sim: ${message}\n`)),
  }));
  const stopCollecting = options.collectGarbageWhenIdle ? collectGarbageWhenIdle(listening.server) : undefined;
  const { port } = listening;
  // The `kubernetes` Service names this address; the controller manager publishes this CA.
  const controlPlane = cluster.bootstrap ? startControlPlane(cluster, { port, caPem: pki?.ca.certPem ?? '', controllerManager: options.controllerManager !== false }) : undefined;
  const url = `${pki ? 'https' : 'http'}://127.0.0.1:${port}`;
  let kubeconfig: Awaited<ReturnType<typeof publishKubeconfig>>;
  try {
    kubeconfig = await publishKubeconfig(url, credentials.auth.token, pki, options);
  } catch (err) {
    // Nobody could reach a server whose kubeconfig was not written: it must not go on listening.
    controlPlane?.stop();
    stopCollecting?.();
    httpFaults.dispose();
    discovery.dispose();
    await listening.close();
    throw err;
  }

  let stopped: Promise<void> | undefined;
  return {
    url,
    port,
    token: credentials.auth.token,
    caPem: pki?.ca.certPem ?? '',
    kubeconfigPath: kubeconfig.path,
    kubeconfig: kubeconfig.text,
    adminUrl: `${url}/${ADMIN_PREFIX}/admin`,
    cluster,
    stop() {
      stopped ??= (async () => {
        controlPlane?.stop();
        stopCollecting?.();
        const closed = listening.close();
        httpFaults.dispose();
        discovery.dispose();
        await closed;
        if (kubeconfig.scratchDir) await rm(kubeconfig.scratchDir, { recursive: true, force: true });
      })();
      return stopped;
    },
  };
}

/** The OpenAPI documents, built from the resources served and the CRDs stored. */
function openApiServiceFor(cluster: SimClusterApi, gitVersion: string): OpenApiService {
  return new OpenApiService({
    servedResources: () => cluster.resources.all(),
    customResourceDefinitions: () => cluster.list(CRDS, {}).items.map((s) => s.object),
  }, gitVersion);
}

/**
 * Writes the kubeconfig that reaches the server. Without a place of the user's choosing it lives
 * in a scratch folder of this run, removed on stop (the extension and tests start many clusters;
 * /tmp must not collect them).
 */
async function publishKubeconfig(url: string, token: string, pki: ServingPki | undefined, options: SimServerOptions): Promise<{ text: string; path: string; scratchDir: string | undefined }> {
  const text = renderKubeconfig(pki ? { server: url, token, caPem: pki.ca.certPem } : { server: url, token });
  const scratchDir = options.kubeconfigOut || options.stateDir ? undefined : await mkdtemp(join(tmpdir(), 'controller-lab-sim-'));
  const path = options.kubeconfigOut ?? join(options.stateDir ?? scratchDir!, 'kubeconfig');
  await writeKubeconfig(path, text);
  return { text, path, scratchDir };
}
