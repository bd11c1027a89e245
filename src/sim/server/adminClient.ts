// Talks to a running sim's admin endpoint with the credentials of the kubeconfig it wrote: what
// `controller-lab sim fault …` uses, and what a test in any process can use.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { parse as parseYaml } from 'yaml';
import { ApiError } from '../../shared/apiError.ts';
import { isStatus } from '../../shared/k8s.ts';
import { ADMIN_PREFIX } from './requestPath.ts';

export interface SimEndpoint {
  server: string;
  token: string;
  caPem?: string;
}

interface KubeconfigShape {
  'current-context'?: string;
  contexts?: { name: string; context: { cluster: string; user: string } }[];
  clusters?: { name: string; cluster: { server: string; 'certificate-authority-data'?: string } }[];
  users?: { name: string; user: { token?: string } }[];
}

/** The current context's server, token and CA, from a kubeconfig the sim wrote. */
export function endpointFromKubeconfig(text: string): SimEndpoint {
  const config = parseYaml(text) as KubeconfigShape;
  const context = config.contexts?.find((c) => c.name === config['current-context']) ?? config.contexts?.[0];
  const cluster = config.clusters?.find((c) => c.name === context?.context.cluster) ?? config.clusters?.[0];
  const user = config.users?.find((u) => u.name === context?.context.user) ?? config.users?.[0];
  if (!cluster || !user?.user.token) throw new Error('the kubeconfig has no cluster with a bearer token (was it written by controller-lab sim?)');
  const endpoint: SimEndpoint = { server: cluster.cluster.server, token: user.user.token };
  const ca = cluster.cluster['certificate-authority-data'];
  if (ca) endpoint.caPem = Buffer.from(ca, 'base64').toString('utf8');
  return endpoint;
}

/** How long an admin request may go unanswered: every action answers at once, so silence means a stopped sim. */
const ADMIN_TIMEOUT_MS = 15_000;

/** Why the sim could not be reached, in words, for the errors a connection gets. */
function unreachable(server: string, err: NodeJS.ErrnoException): Error {
  const why: Record<string, string> = { ECONNREFUSED: 'connection refused', ECONNRESET: 'connection reset', ENOTFOUND: 'host not found', EHOSTUNREACH: 'host unreachable' };
  const what = err.code && why[err.code] ? why[err.code] : err.message;
  return new Error(`no simulated cluster answers at ${server} (${what}): is controller-lab sim running, and did it write this kubeconfig?`);
}

/** GET (no body) or POST (JSON body; a string is sent as YAML) to `/controller-lab/admin/<action>`. */
export function adminRequest(endpoint: SimEndpoint, action: string, body?: unknown): Promise<unknown> {
  const url = new URL(`${endpoint.server}/${ADMIN_PREFIX}/admin/${action}`);
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  const headers: Record<string, string> = { Authorization: `Bearer ${endpoint.token}`, Accept: 'application/json' };
  if (payload !== undefined) {
    headers['Content-Type'] = typeof body === 'string' ? 'application/yaml' : 'application/json';
    headers['Content-Length'] = String(Buffer.byteLength(payload));
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, { method: payload === undefined ? 'GET' : 'POST', headers, ...(endpoint.caPem ? { ca: endpoint.caPem } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = text;
        }
        if ((res.statusCode ?? 500) >= 400) {
          reject(isStatus(parsed) ? ApiError.fromStatus(parsed) : new ApiError(res.statusCode ?? 500, text));
        } else {
          resolve(parsed);
        }
      });
    });
    req.setTimeout(ADMIN_TIMEOUT_MS, () => {
      req.destroy(new Error(`the simulated cluster at ${endpoint.server} has not answered in ${ADMIN_TIMEOUT_MS / 1000} s: is it stopped (Ctrl+Z) or overloaded?`));
    });
    req.on('error', (err: NodeJS.ErrnoException) => reject(err.code ? unreachable(endpoint.server, err) : err));
    req.end(payload);
  });
}
