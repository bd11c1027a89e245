import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SimClusterApi } from '../simCluster.ts';
import type { ClientIdentity } from '../store/types.ts';
import type { UserInfo } from '../vocabulary/userInfo.ts';
import { handleAdmin } from './adminApi.ts';
import type { ClientContexts } from './clientContexts.ts';
import { AGGREGATED_CONTENT_TYPE, type DiscoveryDocuments } from './discovery.ts';
import { sendHealth } from './health.ts';
import { flowControlMetrics } from './priorityAndFairness.ts';
import type { HttpFaults } from './httpFaults.ts';
import type { Seat } from './inFlightLimit.ts';
import { negotiateDiscoveryRendering } from './mediaTypes.ts';
import { openApiAnswer } from './openapi.ts';
import type { OpenApiService } from '../openapi/openApiService.ts';
import { QueryParameters } from './queryParameters.ts';
import { decodeBody, readBody } from './requestBody.ts';
import { parseRequestPath, type RequestTarget } from './requestPath.ts';
import { serveResource } from './resourceHandler.ts';
import { sendJson, sendStatus, sendText } from './responses.ts';
import type { ServerCredentials } from './serverCredentials.ts';
import { methodNotAllowed, unplacedPathNotFound } from './status.ts';

// Where a request goes once it is authenticated: authorized, then the admin endpoint, or — after
// the HTTP faults had their say — the resources, discovery, /version, the health checks or the
// OpenAPI documents.

export interface RouterParts {
  cluster: SimClusterApi;
  credentials: ServerCredentials;
  contexts: ClientContexts;
  discovery: DiscoveryDocuments;
  openapi: OpenApiService;
  httpFaults: HttpFaults;
  /** /version's answer. */
  versionJson: string;
  /** Told after the admin endpoint restarted the cluster. */
  onRestart: () => void;
}

/** Serves one authenticated request as `user`; throws what is to be answered as a Status. */
export type Route = (req: IncomingMessage, res: ServerResponse, path: string, query: string, client: ClientIdentity, user: UserInfo, seat: Seat | undefined) => Promise<void>;

export function createRouter(parts: RouterParts): Route {
  const { cluster, credentials, contexts, httpFaults } = parts;
  return async (req, res, path, query, client, user, seat) => {
    credentials.access.authorize(user, req.method ?? 'GET', path, query);
    const target = parseRequestPath(path);
    if (target.kind === 'admin') return serveAdmin(parts, target.path, req, res);

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
        return serveResource({
          cluster, target, query: new QueryParameters(query), ctx: contexts.contextFor(client.userAgent, user), req, res, seat,
          tokens: credentials.tokens, authentication: credentials.reviews,
        });
      case 'coreRoot':
      case 'groupsRoot':
      case 'group':
      case 'groupVersion':
        return serveDiscovery(parts.discovery, target, req, res);
      case 'version':
        return sendJson(res, 200, parts.versionJson);
      case 'metrics':
        return sendText(res, 200, flowControlMetrics(cluster));
      case 'health':
        return sendHealth(res, target.endpoint, target.check, query, { persistence: cluster.persistenceProblem(), heap: cluster.heapProblem() });
      case 'openapi': {
        const doc = openApiAnswer(parts.openapi, target.path, query, req.headers);
        res.writeHead(doc.status, { ...doc.headers, 'Content-Length': doc.body.length });
        res.end(doc.body);
        return;
      }
      default:
        throw unplacedPathNotFound(path, () => cluster.resources.groups());
    }
  };
}

function serveDiscovery(docs: DiscoveryDocuments, target: RequestTarget, req: IncomingMessage, res: ServerResponse): void {
  if (req.method !== 'GET') throw methodNotAllowed(req.method ?? '');
  if (target.kind === 'coreRoot' || target.kind === 'groupsRoot') {
    const rendering = negotiateDiscoveryRendering(req.headers.accept);
    const json = target.kind === 'coreRoot' ? docs.coreRoot(rendering) : docs.groupsRoot(rendering);
    sendJson(res, 200, json, rendering === 'legacy' ? 'application/json' : AGGREGATED_CONTENT_TYPE[rendering]);
  } else if (target.kind === 'group') {
    sendJson(res, 200, docs.group(target.group));
  } else if (target.kind === 'groupVersion') {
    sendJson(res, 200, docs.groupVersion(target.group, target.version));
  }
}

/** `/controller-lab/admin/<action>`: a POST's JSON or YAML body (a scenario's as text), then adminApi.ts. */
async function serveAdmin(parts: RouterParts, path: string[], req: IncomingMessage, res: ServerResponse): Promise<void> {
  let body: unknown;
  if (req.method === 'POST') {
    const raw = await readBody(req);
    const text = raw.toString('utf8');
    const isYaml = /yaml/i.test(req.headers['content-type'] ?? '');
    body = path.join('/') === 'scenario' ? text : text.trim() === '' ? {} : decodeBody(raw, isYaml ? 'yaml' : 'json');
  }
  const answer = await handleAdmin({ method: req.method ?? 'GET', path, body }, { cluster: parts.cluster, onRestart: parts.onRestart });
  sendJson(res, answer.code, JSON.stringify(answer.body));
}
