// What the optional workload simulation does: how many fake Nodes, how long a Pod takes to start
// (and a Job's Pod to finish), and how often a Pod fails. Shared by the CLI flag, the scenario field
// and the launch configuration, so all three accept the same names and say the same errors.

export interface WorkloadOptions {
  /** Fake Nodes created at start (`sim-worker-1`…). Default 3. */
  nodes: number;
  /** From scheduling to Running and Ready. Default 500 ms. */
  podStartDelayMs: number;
  /** How long a Job's Pod runs before it Succeeds (or Fails). Default 1000 ms. */
  jobPodDurationMs: number;
  /** 0…1: the share of Pods that fail (CrashLoopBackOff, or Failed for Job Pods). Default 0. */
  podFailureRate: number;
}

export const DEFAULT_WORKLOAD_OPTIONS: WorkloadOptions = { nodes: 3, podStartDelayMs: 500, jobPodDurationMs: 1000, podFailureRate: 0 };

/** Fills defaults and checks ranges; throws an Error naming the field. */
export function workloadOptions(partial: Partial<WorkloadOptions> = {}): WorkloadOptions {
  const o = { ...DEFAULT_WORKLOAD_OPTIONS, ...Object.fromEntries(Object.entries(partial).filter(([, v]) => v !== undefined)) };
  if (!Number.isInteger(o.nodes) || o.nodes < 0 || o.nodes > 1000) throw new Error(`nodes must be a whole number from 0 to 1000, not ${o.nodes}`);
  for (const field of ['podStartDelayMs', 'jobPodDurationMs'] as const) {
    if (!Number.isFinite(o[field]) || o[field] < 0) throw new Error(`${field} must be 0 or more, not ${o[field]}`);
  }
  if (!Number.isFinite(o.podFailureRate) || o.podFailureRate < 0 || o.podFailureRate > 1) throw new Error(`podFailureRate must be from 0 to 1, not ${o.podFailureRate}`);
  return o;
}
