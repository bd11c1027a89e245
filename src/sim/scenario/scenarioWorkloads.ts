import type { WorkloadOptions } from '../workloads/index.ts';
import { MAX_SCENARIO_TIME_MS, parseDuration } from '../vocabulary/duration.ts';

// The scenario's `workloads` field: `true`, or the workload simulation's settings —
//   workloads: { nodes: 3, podStartDelay: 500ms, jobPodDuration: 1s, podFailureRate: 0.1 }

const FIELDS = ['nodes', 'podStartDelay', 'jobPodDuration', 'podFailureRate'];

export interface WorkloadsField {
  options?: Partial<WorkloadOptions>;
  /** [field, message] for each problem, the field relative to `workloads`. */
  problems: [string, string][];
}

export function parseWorkloadsField(value: unknown): WorkloadsField {
  if (value === false) return { problems: [] };
  if (value === true) return { options: {}, problems: [] };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { problems: [['', 'expected true, or a map with nodes, podStartDelay, jobPodDuration, podFailureRate']] };
  }
  const raw = value as Record<string, unknown>;
  const problems: [string, string][] = [];
  for (const k of Object.keys(raw)) if (!FIELDS.includes(k)) problems.push([k, `unknown field; expected one of: ${FIELDS.join(', ')}`]);
  const options: Partial<WorkloadOptions> = {};
  if (raw.nodes !== undefined) {
    if (typeof raw.nodes === 'number' && Number.isInteger(raw.nodes) && raw.nodes >= 0 && raw.nodes <= 1000) options.nodes = raw.nodes;
    else problems.push(['nodes', 'must be a whole number from 0 to 1000']);
  }
  for (const [field, key] of [['podStartDelay', 'podStartDelayMs'], ['jobPodDuration', 'jobPodDurationMs']] as const) {
    if (raw[field] === undefined) continue;
    const ms = parseDuration(raw[field]);
    if (ms === undefined) problems.push([field, 'expected a duration such as 500ms or 2s']);
    else if (ms > MAX_SCENARIO_TIME_MS) problems.push([field, 'must be at most 24h']);
    else options[key] = ms;
  }
  if (raw.podFailureRate !== undefined) {
    const rate = raw.podFailureRate;
    if (typeof rate === 'number' && rate >= 0 && rate <= 1) options.podFailureRate = rate;
    else problems.push(['podFailureRate', 'must be a number from 0 to 1']);
  }
  return { options, problems };
}
