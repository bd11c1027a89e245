// The fault and insight endpoint, `/controller-lab/admin/<action>`, behind the same bearer token as
// the API. JSON in, JSON out; a bad argument is a 400 Status like everywhere else. The CLI's
// `controller-lab sim fault …` and any test harness in any language drive the sim through it. Its
// faults are the fault table's (src/sim/faults/faultTable.ts), by their names and arguments.
import { ApiError } from '../../shared/apiError.ts';
import type { SimClusterApi } from '../simCluster.ts';
import { FaultArgumentError } from '../faults/faultArguments.ts';
import { faultArgsFrom } from '../faults/faultCalls.ts';
import { FAULTS, applyFault, type Fault, type FaultTarget } from '../faults/faultTable.ts';
import { apiError, badRequest, methodNotAllowed } from './status.ts';
import { scenarioAdmission } from '../admission/index.ts';

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

/** A fault of the table (src/sim/faults) as an admin action: POST its arguments as JSON. */
function faultAction(fault: Fault): ActionSpec {
  const args = Object.keys(fault.args);
  return {
    method: 'POST',
    summary: `${fault.help}${args.length ? ` ({${args.join(', ')}})` : ''}`,
    run: ({ cluster, onRestart }, body) => {
      let args: Record<string, unknown>;
      try {
        args = faultArgsFrom(fault, body);
      } catch (err) {
        if (err instanceof FaultArgumentError) throw badRequest(err.message);
        throw err;
      }
      const target: FaultTarget = {
        faults: cluster.faults,
        resources: cluster.resources,
        get resourceVersion() {
          return cluster.resourceVersion;
        },
        restarted: () => onRestart?.(),
      };
      return ok(applyFault(target, fault, args));
    },
  };
}

/** What the admin endpoint answers besides faults: the state, the clients, and scenarios to run. */
const OTHER_ACTIONS: Record<string, ActionSpec> = {
  state: {
    method: 'GET',
    summary: 'current resourceVersion, active faults, and why the state dir cannot be written (if so)',
    run: ({ cluster }) => {
      const problem = cluster.persistenceProblem();
      const heap = cluster.heapProblem();
      return ok({ resourceVersion: String(cluster.resourceVersion), faults: cluster.faults.state(), ...(problem ? { persistenceProblem: problem } : {}), ...(heap ? { heapProblem: heap } : {}) });
    },
  },
  clients: {
    method: 'GET',
    summary: 'every client seen (by user agent and token): its watches, lists and writes',
    run: ({ cluster }) => ok({ clients: cluster.clients.clients() }),
  },
  scenario: {
    method: 'POST',
    summary: 'load and start a scenario (YAML body)',
    run: ({ cluster }, _body, raw) => {
      if (typeof raw !== 'string' || raw.trim() === '') throw badRequest('the scenario body (YAML) is empty');
      let handle;
      try {
        handle = cluster.loadScenario(raw, { fileName: 'admin-request.yaml', admit: scenarioAdmission(cluster) });
      } catch (err) {
        // A ScenarioError names the line and field: the caller's mistake, so a 400.
        if (err instanceof ApiError) throw err;
        throw badRequest(err instanceof Error ? err.message : String(err));
      }
      handle.done.catch(() => undefined); // failures are reported by the scenario runner itself
      return { code: 202, body: { started: true, ...(handle.warnings.length ? { warnings: handle.warnings } : {}) } };
    },
  },
};

/** Every action of `/controller-lab/admin/<action>`: the faults of the table, then the others. */
export const ADMIN_ACTIONS: Record<string, ActionSpec> = {
  ...Object.fromEntries(FAULTS.map((f) => [f.name, faultAction(f)])),
  ...OTHER_ACTIONS,
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
