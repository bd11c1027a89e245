// /healthz, /livez and /readyz as kube-apiserver answers them: "ok" or, with ?verbose or when a check
// fails, one line per check ("[+]ping ok", "[-]persistence failed: …") and a verdict line; one check
// alone at /readyz/<name>; ?exclude=<name> leaves a check out. Liveness is the process serving at
// all; readiness also needs the state dir to take writes (a full disk makes the sim not ready, with
// the reason, while reads keep working).
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

function checksOf(endpoint: HealthEndpoint, persistenceProblem: string | undefined): Check[] {
  // The store is the sim's etcd: in memory, always there while the process serves.
  const always = [passing('ping'), passing('log'), passing('etcd')];
  if (endpoint !== 'readyz') return always;
  return [...always, { name: 'persistence', problem: () => persistenceProblem?.replace(/\s+/g, ' ') }, passing('shutdown')];
}

/** `check`: '' for the endpoint itself, or one check's name (/readyz/persistence). */
export function healthAnswer(endpoint: HealthEndpoint, check: string, query: URLSearchParams, persistenceProblem: string | undefined): HealthAnswer {
  const checks = checksOf(endpoint, persistenceProblem);
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

export function sendHealth(res: ServerResponse, endpoint: HealthEndpoint, check: string, query: string, persistenceProblem: string | undefined): void {
  const answer = healthAnswer(endpoint, check, new URLSearchParams(query), persistenceProblem);
  sendText(res, answer.status, answer.text);
}
