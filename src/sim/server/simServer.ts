// The simulated cluster over HTTPS, so kubectl, client-go, client-node and any controller can use it
// with a generated kubeconfig. 127.0.0.1 only; a bearer token is required on every request.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo, Server as NetServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError } from '../../shared/apiError.ts';
import { startControlPlane } from '../bootstrap/controlPlane.ts';
import type { SimClusterApi } from '../simCluster.ts';
import type { ClientIdentity, RequestContext } from '../store/types.ts';
import { loadOrCreatePki } from '../tls/certificates.ts';
import { renderKubeconfig, writeKubeconfig } from '../tls/kubeconfig.ts';
import { loadOrCreateToken, newToken } from '../tls/tokenFile.ts';
import { handleAdmin } from './adminApi.ts';
import { BearerAuth } from './bearerAuth.ts';
import { authenticateServiceAccountToken, DEFAULT_AUDIENCE, ServiceAccountTokens, type TokenAuthentication, type TokenRejection } from './serviceAccountTokens.ts';
import { ImpersonationHeadersError } from '../auth/impersonation.ts';
import { RbacAuthorizer } from '../auth/rbacAuthorizer.ts';
import { ADMIN_USER, type UserInfo } from '../vocabulary/userInfo.ts';
import { RequestAccess } from './requestAccess.ts';
import { AGGREGATED_CONTENT_TYPE, DiscoveryDocuments } from './discovery.ts';
import { HttpFaults } from './httpFaults.ts';
import { DEFAULT_IN_FLIGHT_LIMITS, InFlightLimiter, isExemptFromLimit, sendTooManyRequests, type InFlightLimits, type Seat } from './inFlightLimit.ts';
import { negotiateDiscoveryRendering } from './mediaTypes.ts';
import { openApiAnswer } from './openapi.ts';
import { OpenApiService } from '../openapi/openApiService.ts';
import { QueryParameters } from './queryParameters.ts';
import { DEFAULT_REQUEST_TIMEOUT_MS, decodeBody, readBody, setRequestTimeout } from './requestBody.ts';
import { ADMIN_PREFIX, parseRequestPath, splitUrl, type RequestTarget } from './requestPath.ts';
import { serveResource, wasRecordedByStore } from './resourceHandler.ts';
import { sendHealth } from './health.ts';
import { gateHandshakes } from './tlsHandshakeGate.ts';
import { sendJson, sendStatus, sendText } from './responses.ts';
import { methodNotAllowed, PageNotFound, unplacedPathNotFound, statusFromError, UNAUTHORIZED_STATUS } from './status.ts';
import { versionInfo } from './versionInfo.ts';

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
  const serverToken = options.token ?? (options.stateDir ? await loadOrCreateToken(options.stateDir) : newToken());
  const tokens = new ServiceAccountTokens(serverToken, cluster.clock);
  const auth = new BearerAuth(serverToken, (presented) => {
    const found = authenticateServiceAccountToken(cluster, tokens, presented);
    return found && 'user' in found ? found.user : undefined;
  });
  const authorizer = new RbacAuthorizer(cluster);
  const access = new RequestAccess(authorizer);
  const { token, tokenId } = auth;
  const pki = options.insecureHttp ? undefined : await loadOrCreatePki(options.stateDir);
  const serverVersion = versionInfo(options.serverVersion);
  const version = JSON.stringify(serverVersion);
  const httpFaults = new HttpFaults(cluster.faults);
  const reportInternalError = options.onInternalError ?? ((message: string) => process.stderr.write(`controller-lab sim: ${message}\n`));
  const contexts = new Map<string, RequestContext>();
  const inFlight = new InFlightLimiter({ ...DEFAULT_IN_FLIGHT_LIMITS, ...options.maxRequestsInFlight });
  const sockets = new Set<Socket>();
  let port = 0;
  const openapi = new OpenApiService({
    servedResources: () => cluster.resources.all(),
    customResourceDefinitions: () => cluster.list(CRDS, {}).items.map((s) => s.object),
  }, serverVersion.gitVersion);
  const discovery = new DiscoveryDocuments(cluster.resources, () => `127.0.0.1:${port}`);

  /** One context per client: its user agent, and who it acts as when that is not the admin. */
  const contextFor = (userAgent: string, user: UserInfo): RequestContext => {
    const admin = user === ADMIN_USER;
    const key = admin ? userAgent : `${userAgent}\n${user.username}`;
    let ctx = contexts.get(key);
    if (!ctx) {
      ctx = { client: admin ? { userAgent, tokenId } : { userAgent, tokenId, user: user.username } };
      if (contexts.size < 1000) contexts.set(key, ctx);
    }
    // The request's own user: a bound token's Pod, an impersonated uid or extras may differ per request.
    return admin ? ctx : { ...ctx, user };
  };

  /** What a TokenReview asks: who a token stands for, for which of the audiences asked. */
  const authenticateToken = (presented: string, audiences: readonly string[]): TokenAuthentication | TokenRejection | undefined => {
    if (auth.userFor(presented) === ADMIN_USER) {
      // The admin token is good for the API server's own audience only, as a static token is.
      return audiences.includes(DEFAULT_AUDIENCE) ? { user: ADMIN_USER, audiences: [DEFAULT_AUDIENCE] } : undefined;
    }
    return authenticateServiceAccountToken(cluster, tokens, presented, audiences);
  };

  const serveDiscovery = (target: RequestTarget, req: IncomingMessage, res: ServerResponse): void => {
    if (req.method !== 'GET') throw methodNotAllowed(req.method ?? '');
    const docs = discovery;
    if (target.kind === 'coreRoot' || target.kind === 'groupsRoot') {
      const rendering = negotiateDiscoveryRendering(req.headers.accept);
      const json = target.kind === 'coreRoot' ? docs.coreRoot(rendering) : docs.groupsRoot(rendering);
      sendJson(res, 200, json, rendering === 'legacy' ? 'application/json' : AGGREGATED_CONTENT_TYPE[rendering]);
    } else if (target.kind === 'group') {
      sendJson(res, 200, docs.group(target.group));
    } else if (target.kind === 'groupVersion') {
      sendJson(res, 200, docs.groupVersion(target.group, target.version));
    }
  };

  const serveAdmin = async (path: string[], req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let body: unknown;
    if (req.method === 'POST') {
      const raw = await readBody(req);
      const text = raw.toString('utf8');
      const isYaml = /yaml/i.test(req.headers['content-type'] ?? '');
      body = path.join('/') === 'scenario' ? text : text.trim() === '' ? {} : decodeBody(raw, isYaml ? 'yaml' : 'json');
    }
    const answer = await handleAdmin({ method: req.method ?? 'GET', path, body }, {
      cluster,
      onRestart: () => setImmediate(() => server.closeIdleConnections()),
    });
    sendJson(res, answer.code, JSON.stringify(answer.body));
  };

  const serve = async (req: IncomingMessage, res: ServerResponse, path: string, query: string, client: ClientIdentity, user: UserInfo, seat: Seat | undefined): Promise<void> => {
    access.authorize(user, req.method ?? 'GET', path, query);
    const target = parseRequestPath(path);
    if (target.kind === 'admin') return serveAdmin(target.path, req, res);

    const latency = httpFaults.latencyFor(path);
    if (latency > 0) await new Promise((r) => setTimeout(r, latency));
    const failure = httpFaults.failureFor(path);
    if (failure) {
      cluster.clients.recordError(client, (req.method ?? 'GET').toLowerCase(), path, failure.status.code);
      sendStatus(res, failure.status, failure.headers);
      return;
    }

    switch (target.kind) {
      case 'resource':
        return serveResource({ cluster, target, query: new QueryParameters(query), ctx: contextFor(client.userAgent, user), req, res, seat, tokens, authentication: { authorizer, authenticateToken } });
      case 'coreRoot':
      case 'groupsRoot':
      case 'group':
      case 'groupVersion':
        return serveDiscovery(target, req, res);
      case 'version':
        return sendJson(res, 200, version);
      case 'health':
        return sendHealth(res, target.endpoint, target.check, query, cluster.persistenceProblem());
      case 'openapi': {
        const doc = openApiAnswer(openapi, target.path, query, req.headers);
        res.writeHead(doc.status, { ...doc.headers, 'Content-Length': doc.body.length });
        res.end(doc.body);
        return;
      }
      default:
        throw unplacedPathNotFound(path, () => cluster.resources.groups());
    }
  };

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const userAgent = req.headers['user-agent'] ?? '';
    const { path, query } = splitUrl(req.url ?? '/');
    const requester = auth.authenticate(req.headers.authorization);
    if (!requester) {
      // Nothing is kept about a caller without the token (as kube-apiserver's authentication
      // filter answers 401 before anything else runs): made-up user agents cannot grow state. A body
      // is not read to its end either: the connection closes after the answer.
      if (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined) res.setHeader('Connection', 'close');
      req.resume();
      sendStatus(res, UNAUTHORIZED_STATUS);
      return;
    }
    let user: UserInfo;
    try {
      user = access.actingUser(requester, req);
    } catch (err) {
      req.resume();
      if (err instanceof ImpersonationHeadersError) sendText(res, 500, `Internal Server Error: ${JSON.stringify(req.url ?? '/')}: ${err.message}\n`);
      else sendStatus(res, statusFromError(err));
      return;
    }
    const client = contextFor(userAgent, user).client!;
    const exempt = isExemptFromLimit(parseRequestPath(path), query);
    const seat = exempt ? undefined : inFlight.admit(req, res);
    if (!exempt && !seat) {
      cluster.clients.recordError(client, (req.method ?? 'GET').toLowerCase(), path, 429);
      req.resume();
      sendTooManyRequests(res);
      return;
    }
    setRequestTimeout(req, options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
    serve(req, res, path, query, client, user, seat).catch((err: unknown) => {
      const status = statusFromError(err);
      // A non-API error is a bug of ours: answer 500 and say so on stderr, then keep serving.
      if (!(err instanceof ApiError)) {
        reportInternalError(`${req.method} ${req.url}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      }
      if (!wasRecordedByStore(err)) cluster.clients.recordError(client, (req.method ?? 'GET').toLowerCase(), path, status.code);
      // Drain whatever body is left so the keep-alive connection stays usable; a body that timed
      // out is not waited for: the connection closes after the answer.
      if (status.code === 504) res.setHeader('Connection', 'close');
      if (!req.readableEnded) req.resume();
      if (err instanceof PageNotFound) return sendText(res, 404, PageNotFound.TEXT);
      sendStatus(res, status, status.details?.retryAfterSeconds ? { 'Retry-After': String(status.details.retryAfterSeconds) } : undefined);
    });
  };

  const serverOptions = { keepAliveTimeout: 65_000, requestTimeout: 0, headersTimeout: 60_000, noDelay: true };
  const server: Server = pki
    ? createHttpsServer({ ...serverOptions, key: pki.serving.keyPem, cert: pki.serving.certPem }, onRequest)
    : createHttpServer(serverOptions, onRequest);
  // Over HTTPS, a TCP server of our own accepts and admits a few TLS handshakes at a time.
  const handshakes = pki ? gateHandshakes(server as HttpsServer, { key: pki.serving.keyPem, cert: pki.serving.certPem }) : undefined;
  const listener: NetServer = handshakes?.listener ?? server;
  listener.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('clientError', (_err, socket: Socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
  });
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(options.port ?? 0, '127.0.0.1', () => {
      listener.off('error', reject);
      resolve();
    });
  });
  port = (listener.address() as AddressInfo).port;
  // The `kubernetes` Service names this address; the controller manager publishes this CA.
  const controlPlane = cluster.bootstrap ? startControlPlane(cluster, { port, caPem: pki?.ca.certPem ?? '', controllerManager: options.controllerManager !== false }) : undefined;
  const url = `${pki ? 'https' : 'http'}://127.0.0.1:${port}`;

  const kubeconfig = renderKubeconfig(pki ? { server: url, token, caPem: pki.ca.certPem } : { server: url, token });
  // Without a place of the user's choosing, the kubeconfig lives in a scratch folder of this run,
  // removed on stop (the extension and tests start many clusters; /tmp must not collect them).
  const scratchDir = options.kubeconfigOut || options.stateDir ? undefined : await mkdtemp(join(tmpdir(), 'controller-lab-sim-'));
  const kubeconfigPath = options.kubeconfigOut ?? join(options.stateDir ?? scratchDir!, 'kubeconfig');
  await writeKubeconfig(kubeconfigPath, kubeconfig);

  let stopped: Promise<void> | undefined;
  return {
    url,
    port,
    token,
    caPem: pki?.ca.certPem ?? '',
    kubeconfigPath,
    kubeconfig,
    adminUrl: `${url}/${ADMIN_PREFIX}/admin`,
    cluster,
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        controlPlane?.stop();
        listener.close(() => resolve());
        if (listener !== server) server.close();
        handshakes?.dropWaiting();
        server.closeAllConnections();
        for (const s of sockets) s.destroy();
        httpFaults.dispose();
        discovery.dispose();
      }).then(() => (scratchDir ? rm(scratchDir, { recursive: true, force: true }) : undefined));
      return stopped;
    },
  };
}
