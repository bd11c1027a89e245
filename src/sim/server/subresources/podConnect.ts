import type { KubeObject } from '../../../shared/k8s.ts';
import { ApiError } from '../../../shared/apiError.ts';
import { badRequest, notFound } from '../../../shared/apiErrors.ts';
import type { ResourceRequest } from '../resourceRequest.ts';
import { sendJson, sendText } from '../responses.ts';
import { apiError, methodNotAllowed } from '../status.ts';

// The Pod subresources kube-apiserver hands to a kubelet (log, exec, attach, portforward, proxy)
// and ephemeralcontainers. There is no kubelet here, so they answer as kube-apiserver does when it
// cannot reach one: a missing Pod is its 404, a container the Pod does not have a 400, a Pod not
// yet on a node is a 400 saying so (its log: no content), a node no Node object stands for is
// the 404 kube-apiserver's node lookup answers (named by the request's resource, `pods "n" not
// found`), and a Pod on a simulated node has no container to talk to. `kubectl logs` of such a Pod
// prints nothing.

const PODS = { group: '', version: 'v1', resource: 'pods' };
const NODES = { group: '', version: 'v1', resource: 'nodes' };

type Named = { name?: string };
type Pod = KubeObject & { spec?: { nodeName?: string; containers?: Named[]; initContainers?: Named[]; ephemeralContainers?: Named[] }; status?: { podIP?: string } };

/** validateContainer: the container asked for must be the Pod's; none asked is fine with one container. */
function checkContainer(p: Pod, requested: string | undefined): void {
  const name = p.metadata.name ?? '';
  const all = [...(p.spec?.containers ?? []), ...(p.spec?.initContainers ?? []), ...(p.spec?.ephemeralContainers ?? [])].map((c) => c.name);
  if (requested) {
    if (!all.includes(requested)) throw badRequest(`container ${requested} is not valid for pod ${name}`);
    return;
  }
  const count = p.spec?.containers?.length ?? 0;
  if (count === 0) throw badRequest(`a container name must be specified for pod ${name}`);
  if (count > 1) throw badRequest(`a container name must be specified for pod ${name}, choose one of: [${all.join(' ')}]`);
}

/** The node lookup before a kubelet is dialled: a node with no Node object is a 404 named by the request's resource. */
function checkNodeExists(r: ResourceRequest, node: string): void {
  try {
    r.cluster.get(NODES, '', node, undefined, r.ctx);
  } catch (err) {
    if (err instanceof ApiError && err.code === 404) throw notFound('', 'pods', node);
    throw err;
  }
}

function pod(r: ResourceRequest): Pod {
  return r.cluster.get(PODS, r.target.namespace, r.target.name, undefined, r.ctx).object as Pod;
}

function noKubelet(r: ResourceRequest, p: Pod): Error {
  const node = p.spec?.nodeName;
  if (!node) return badRequest(`pod ${p.metadata.name ?? ''} does not have a host assigned`);
  checkNodeExists(r, node);
  return apiError(500, `error dialing backend: node ${node} is simulated: there is no kubelet to connect to`, 'InternalError');
}

async function serveLog(r: ResourceRequest): Promise<void> {
  const method = r.req.method ?? 'GET';
  if (method !== 'GET') throw methodNotAllowed(method);
  const p = pod(r);
  checkContainer(p, r.query.get('container'));
  // Unscheduled: no container has written anything yet, which the API server answers with no content.
  if (!p.spec?.nodeName) {
    r.res.writeHead(204);
    r.res.end();
    return;
  }
  checkNodeExists(r, p.spec.nodeName);
  sendText(r.res, 200, '');
}

async function serveStream(r: ResourceRequest): Promise<void> {
  const method = r.req.method ?? 'GET';
  if (method !== 'GET' && method !== 'POST') throw methodNotAllowed(method);
  const p = pod(r);
  // exec and attach name a container; portforward does not.
  if (r.target.subresource !== 'portforward') checkContainer(p, r.query.get('container'));
  throw noKubelet(r, p);
}

async function serveProxy(r: ResourceRequest): Promise<void> {
  const p = pod(r);
  if (!p.status?.podIP) throw badRequest('address not allowed');
  throw noKubelet(r, p);
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
