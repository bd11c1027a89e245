import type { TracedReconcile } from './checkRun.ts';

// A run can go quiet with keys whose reconciles keep failing: their backoff puts the next try
// beyond what quietness waits for. Such a run's end state is the same every time, so it raises no
// finding, yet the controller never did its work: the reference runs say so.

export interface FailingKey {
  /** `Gate default/web`, as the run's other lines name a request. */
  request: string;
  /** The last reconcile's error message. */
  error: string;
}

/** The keys whose last reconcile in the run ended in an error, in the order they were first seen. */
export function failingKeys(reconciles: readonly TracedReconcile[]): FailingKey[] {
  const last = new Map<string, TracedReconcile>();
  for (const r of reconciles) {
    const id = `${r.record.controller}\0${r.record.forKind.kind} ${r.record.key}`;
    last.set(id, r);
  }
  const failing: FailingKey[] = [];
  for (const { record } of last.values()) {
    if (record.outcome?.kind === 'error') failing.push({ request: `${record.forKind.kind} ${record.key}`, error: record.outcome.error.message });
  }
  return failing;
}
