import type { KubeObject } from '../../../shared/k8s.ts';
import { badRequest } from '../../../shared/apiErrors.ts';
import type { ResourceRequest } from '../resourceRequest.ts';
import { sendJson, sendText } from '../responses.ts';
import { apiError, methodNotAllowed } from '../status.ts';

// The Pod subresources kube-apiserver hands to a kubelet (log, exec, attach, portforward, proxy)
// and ephemeralcontainers. There is no kubelet here, so they answer as kube-apiserver does when it
// cannot reach one: a missing Pod is its 404, a Pod not yet on a node is a 400 saying so, and a
// Pod on a simulated node has no container to talk to. `kubectl logs` of such a Pod prints nothing.

const PODS = { group: '', version: 'v1', resource: 'pods' };

type Pod = KubeObject & { spec?: { nodeName?: string }; status?: { podIP?: string } };

function pod(r: ResourceRequest): Pod {
  return r.cluster.get(PODS, r.target.namespace, r.target.name, undefined, r.ctx).object as Pod;
}

function noKubelet(p: Pod): Error {
  const node = p.spec?.nodeName;
  if (!node) return badRequest(`pod ${p.metadata.name ?? ''} does not have a host assigned`);
  return apiError(500, `error dialing backend: node ${node} is simulated: there is no kubelet to connect to`, 'InternalError');
}

async function serveLog(r: ResourceRequest): Promise<void> {
  const method = r.req.method ?? 'GET';
  if (method !== 'GET') throw methodNotAllowed(method);
  const p = pod(r);
  // Unscheduled: no container has written anything yet, which the API server answers with no content.
  if (!p.spec?.nodeName) {
    r.res.writeHead(204);
    r.res.end();
    return;
  }
  sendText(r.res, 200, '');
}

async function serveStream(r: ResourceRequest): Promise<void> {
  const method = r.req.method ?? 'GET';
  if (method !== 'GET' && method !== 'POST') throw methodNotAllowed(method);
  throw noKubelet(pod(r));
}

async function serveProxy(r: ResourceRequest): Promise<void> {
  const p = pod(r);
  if (!p.status?.podIP) throw badRequest('address not allowed');
  throw noKubelet(p);
}

async function serveEphemeralContainers(r: ResourceRequest): Promise<void> {
  const method = r.req.method ?? 'GET';
  if (method !== 'GET') throw methodNotAllowed(method);
  sendJson(r.res, 200, JSON.stringify(pod(r)));
}

/** Handlers by subresource name. */
export const POD_CONNECT: Record<string, (r: ResourceRequest) => Promise<void>> = {
  log: serveLog,
  exec: serveStream,
  attach: serveStream,
  portforward: serveStream,
  proxy: serveProxy,
  ephemeralcontainers: serveEphemeralContainers,
};
