// /healthz, /livez and /readyz as kube-apiserver answers them: "ok" or, with ?verbose or when a check
// fails, one line per check ("[+]ping ok", "[-]persistence failed: …") and a verdict line; one check
// alone at /readyz/<name>; ?exclude=<name> leaves a check out. Liveness is the process serving at
// all; readiness also needs the state dir and the heap to take writes (a full disk, or a heap past
// its quota, makes the sim not ready, with the reason, while reads keep working).
import type { ServerResponse } from 'node:http';
import type { HealthEndpoint } from './requestPath.ts';
import { PageNotFound } from './status.ts';
import { sendText } from './responses.ts';

interface Check {
  name: string;
  /** Why the check fails now, or undefined when it passes. */
  problem(): string | undefined;
}

export interface HealthAnswer {
  status: number;
  text: string;
}

const passing = (name: string): Check => ({ name, problem: () => undefined });

/** Why writes are refused now, if they are. */
export interface WriteProblems {
  persistence: string | undefined;
  heap: string | undefined;
}

const oneLine = (text: string | undefined) => text?.replace(/\s+/g, ' ');

/**
 * kube-apiserver v1.28's post-start hooks, in its order: each is done before the sim serves (the
 * objects they make are made at start), so each passes. Clients (and the e2e health spec) look
 * for them by name.
 */
const START_HOOKS = [
  'poststarthook/start-kube-apiserver-admission-initializer',
  'poststarthook/generic-apiserver-start-informers',
  'poststarthook/priority-and-fairness-config-consumer',
  'poststarthook/priority-and-fairness-filter',
  'poststarthook/storage-object-count-tracker-hook',
  'poststarthook/start-apiextensions-informers',
  'poststarthook/start-apiextensions-controllers',
  'poststarthook/crd-informer-synced',
  'poststarthook/start-service-ip-repair-controllers',
  'poststarthook/rbac/bootstrap-roles',
  'poststarthook/scheduling/bootstrap-system-priority-classes',
  'poststarthook/priority-and-fairness-config-producer',
  'poststarthook/start-system-namespaces-controller',
  'poststarthook/bootstrap-controller',
  'poststarthook/start-cluster-authentication-info-controller',
  'poststarthook/start-kube-apiserver-identity-lease-controller',
  'poststarthook/start-deprecated-kube-apiserver-identity-lease-garbage-collector',
  'poststarthook/start-kube-apiserver-identity-lease-garbage-collector',
  'poststarthook/start-legacy-token-tracking-controller',
  'poststarthook/start-kube-aggregator-informers',
  'poststarthook/apiservice-registration-controller',
  'poststarthook/apiservice-status-available-controller',
  'poststarthook/kube-apiserver-autoregistration',
  'autoregister-completion',
  'poststarthook/apiservice-openapi-controller',
  'poststarthook/apiservice-openapiv3-controller',
  'poststarthook/apiservice-discovery-controller',
].map(passing);

function checksOf(endpoint: HealthEndpoint, problems: WriteProblems): Check[] {
  // The store is the sim's etcd: in memory, always there while the process serves.
  const always = [passing('ping'), passing('log'), passing('etcd')];
  if (endpoint !== 'readyz') return [...always, ...START_HOOKS];
  return [
    ...always, passing('etcd-readiness'), passing('informer-sync'), ...START_HOOKS,
    { name: 'persistence', problem: () => oneLine(problems.persistence) }, { name: 'heap', problem: () => oneLine(problems.heap) }, passing('shutdown'),
  ];
}

/** `check`: '' for the endpoint itself, or one check's name (/readyz/persistence). */
export function healthAnswer(endpoint: HealthEndpoint, check: string, query: URLSearchParams, problems: WriteProblems): HealthAnswer {
  const checks = checksOf(endpoint, problems);
  if (check !== '') {
    const one = checks.find((c) => c.name === check);
    if (!one) return { status: 404, text: PageNotFound.TEXT };
    const problem = one.problem();
    return problem === undefined ? { status: 200, text: 'ok' } : { status: 500, text: `internal server error: ${problem}\n` };
  }

  const excluded = new Set(query.getAll('exclude').flatMap((e) => e.split(',')).filter((e) => e !== ''));
  const lines: string[] = [];
  let failed = false;
  for (const c of checks) {
    if (excluded.delete(c.name)) {
      lines.push(`[+]${c.name} excluded: ok`);
      continue;
    }
    const problem = c.problem();
    failed ||= problem !== undefined;
    lines.push(problem === undefined ? `[+]${c.name} ok` : `[-]${c.name} failed: ${problem}`);
  }
  if (excluded.size > 0) lines.push(`warn: some health checks cannot be excluded: no matches for ${[...excluded].map((e) => `"${e}"`).join(',')}`);
  if (failed) return { status: 500, text: `${lines.join('\n')}\n${endpoint} check failed\n` };
  if (!query.has('verbose')) return { status: 200, text: 'ok' };
  return { status: 200, text: `${lines.join('\n')}\n${endpoint} check passed\n` };
}

export function sendHealth(res: ServerResponse, endpoint: HealthEndpoint, check: string, query: string, problems: WriteProblems): void {
  const answer = healthAnswer(endpoint, check, new URLSearchParams(query), problems);
  sendText(res, answer.status, answer.text);
}
