// The fault and insight endpoint, `/controller-lab/admin/<action>`, behind the same bearer token as
// the API. JSON in, JSON out; a bad argument is a 400 Status like everywhere else. The CLI's
// `controller-lab sim fault …` and any test harness in any language drive the sim through it.
import { ApiError } from '../../shared/apiError.ts';
import type { SimClusterApi } from '../simCluster.ts';
import type { HttpFaultSettings } from '../store/types.ts';
import { apiError, badRequest, methodNotAllowed } from './status.ts';

export interface AdminRequest {
  method: string;
  /** Path segments after /controller-lab/admin/. */
  path: string[];
  /** The decoded JSON body for POST, or the raw text for `scenario`. */
  body: unknown;
}

export interface AdminAnswer {
  code: number;
  body: unknown;
}

export interface AdminDeps {
  cluster: SimClusterApi;
  /** Called after a restart so the server can also drop idle keep-alive connections. */
  onRestart?: () => void;
}

interface ActionSpec {
  method: 'GET' | 'POST';
  summary: string;
  run(deps: AdminDeps, body: Record<string, unknown>, raw: unknown): AdminAnswer | Promise<AdminAnswer>;
}

const ok = (body: unknown = { ok: true }): AdminAnswer => ({ code: 200, body });

function numberArg(body: Record<string, unknown>, name: string, { min = 0, max = Number.MAX_SAFE_INTEGER, optional = false } = {}): number | undefined {
  const v = body[name];
  if (v === undefined || v === null) {
    if (optional) return undefined;
    throw badRequest(`${name} is required`);
  }
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < min || n > max) throw badRequest(`${name} must be a number between ${min} and ${max}`);
  return n;
}

function stringArg(body: Record<string, unknown>, name: string, optional = false): string | undefined {
  const v = body[name];
  if (v === undefined || v === null || v === '') {
    if (optional) return undefined;
    throw badRequest(`${name} is required`);
  }
  if (typeof v !== 'string') throw badRequest(`${name} must be a string`);
  return v;
}

/** `deployments.apps` → {resource: deployments, group: apps}; an explicit `group` wins. */
function groupResource(body: Record<string, unknown>): { group: string; resource: string } {
  const qualified = stringArg(body, 'resource')!;
  const explicitGroup = stringArg(body, 'group', true);
  const dot = qualified.indexOf('.');
  if (explicitGroup !== undefined || dot < 0) return { group: explicitGroup ?? '', resource: dot < 0 ? qualified : qualified.slice(0, dot) };
  return { resource: qualified.slice(0, dot), group: qualified.slice(dot + 1) };
}

function httpFaultSettings(body: Record<string, unknown>): Partial<HttpFaultSettings> {
  const settings: Partial<HttpFaultSettings> = {};
  const rate = numberArg(body, 'errorRate', { max: 1, optional: true });
  if (rate !== undefined) settings.errorRate = rate;
  const code = numberArg(body, 'errorCode', { optional: true });
  if (code !== undefined) {
    if (code !== 429 && code !== 500) throw badRequest('errorCode must be 429 or 500');
    settings.errorCode = code;
  }
  const retry = numberArg(body, 'retryAfterSeconds', { max: 3600, optional: true });
  if (retry !== undefined) settings.retryAfterSeconds = retry;
  const latency = numberArg(body, 'latencyMs', { max: 600_000, optional: true });
  if (latency !== undefined) settings.latencyMs = latency;
  const filter = body['pathFilter'];
  if (filter !== undefined) {
    if (typeof filter !== 'string') throw badRequest('pathFilter must be a string');
    settings.pathFilter = filter;
  }
  return settings;
}

export const ADMIN_ACTIONS: Record<string, ActionSpec> = {
  state: {
    method: 'GET',
    summary: 'current resourceVersion, active faults, and why the state dir cannot be written (if so)',
    run: ({ cluster }) => {
      const problem = cluster.persistenceProblem();
      return ok({ resourceVersion: String(cluster.resourceVersion), faults: cluster.faults.state(), ...(problem ? { persistenceProblem: problem } : {}) });
    },
  },
  clients: {
    method: 'GET',
    summary: 'every client seen (by user agent and token): its watches, lists and writes',
    run: ({ cluster }) => ok({ clients: cluster.clients.clients() }),
  },
  'drop-watches': {
    method: 'POST',
    summary: 'end every open watch cleanly ({resource?: "deployments.apps"})',
    run: ({ cluster }, body) => ok({ dropped: cluster.faults.dropWatches(stringArg(body, 'resource', true)) }),
  },
  compact: {
    method: 'POST',
    summary: 'drop history before resourceVersion (default: now); older resumes get 410',
    run: ({ cluster }, body) => {
      const rv = numberArg(body, 'resourceVersion', { optional: true });
      return ok({ compactedResourceVersion: String(cluster.faults.compact(rv ?? 'now')) });
    },
  },
  'delay-events': {
    method: 'POST',
    summary: 'delay every watch event by {ms} (0: off)',
    run: ({ cluster }, body) => {
      cluster.faults.delayEvents(numberArg(body, 'ms', { max: 600_000 })!);
      return ok();
    },
  },
  'withhold-events': { method: 'POST', summary: 'hold watch events back until release-events', run: ({ cluster }) => (cluster.faults.withholdEvents(), ok()) },
  'release-events': { method: 'POST', summary: 'deliver held watch events, in order', run: ({ cluster }) => (cluster.faults.releaseEvents(), ok()) },
  'withhold-bookmarks': { method: 'POST', summary: 'send no bookmarks until release-bookmarks', run: ({ cluster }) => (cluster.faults.withholdBookmarks(), ok()) },
  'release-bookmarks': { method: 'POST', summary: 'send bookmarks again', run: ({ cluster }) => (cluster.faults.releaseBookmarks(), ok()) },
  conflict: {
    method: 'POST',
    summary: 'the next update of {resource, namespace?, name} answers 409 Conflict',
    run: ({ cluster }, body) => {
      cluster.faults.conflictNextUpdate(groupResource(body), stringArg(body, 'namespace', true) ?? '', stringArg(body, 'name')!);
      return ok();
    },
  },
  'http-faults': {
    method: 'POST',
    summary: 'answer a share of requests with 429/500, or add latency ({errorRate, errorCode, retryAfterSeconds, latencyMs, pathFilter})',
    run: ({ cluster }, body) => {
      cluster.faults.setHttp(httpFaultSettings(body));
      return ok({ http: cluster.faults.state().http });
    },
  },
  reset: {
    method: 'POST',
    summary: 'turn every fault off',
    run: ({ cluster }) => {
      const f = cluster.faults;
      f.delayEvents(0);
      f.releaseEvents();
      f.releaseBookmarks();
      f.setHttp({ errorRate: 0, latencyMs: 0, pathFilter: '' });
      return ok({ faults: f.state() });
    },
  },
  restart: {
    method: 'POST',
    summary: 'restart keeping state: every watch and idle connection ends, resourceVersions keep rising',
    run: (deps) => {
      deps.cluster.faults.restart();
      deps.onRestart?.();
      return ok({ resourceVersion: String(deps.cluster.resourceVersion) });
    },
  },
  scenario: {
    method: 'POST',
    summary: 'load and start a scenario (YAML body)',
    run: ({ cluster }, _body, raw) => {
      if (typeof raw !== 'string' || raw.trim() === '') throw badRequest('the scenario body (YAML) is empty');
      let handle;
      try {
        handle = cluster.loadScenario(raw, { fileName: 'admin-request.yaml' });
      } catch (err) {
        // A ScenarioError names the line and field: the caller's mistake, so a 400.
        if (err instanceof ApiError) throw err;
        throw badRequest(err instanceof Error ? err.message : String(err));
      }
      handle.done.catch(() => undefined); // failures are reported by the scenario runner itself
      return { code: 202, body: { started: true } };
    },
  },
};

export async function handleAdmin(request: AdminRequest, deps: AdminDeps): Promise<AdminAnswer> {
  const name = request.path.join('/');
  if (name === '') {
    if (request.method !== 'GET') throw methodNotAllowed(request.method);
    return ok({ actions: Object.fromEntries(Object.entries(ADMIN_ACTIONS).map(([k, v]) => [k, `${v.method} ${v.summary}`])) });
  }
  const action = ADMIN_ACTIONS[name];
  if (!action) throw apiError(404, `unknown admin action ${JSON.stringify(name)}; GET /controller-lab/admin lists them`, 'NotFound', {});
  if (request.method !== action.method) throw methodNotAllowed(request.method);
  const raw = request.body;
  const body = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  return await action.run(deps, body, raw);
}
