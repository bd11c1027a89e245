import type { Condition } from './status.ts';
import { setCondition } from './status.ts';

// The ReplicaFailure condition of a ReplicaSet (and a ReplicationController) as the controller
// keeps it (calculateStatus in pkg/controller/replicaset): set, once, when creating or deleting a
// Pod failed (a quota refused it), with the error as its message; removed when a sync succeeds.

export const REPLICA_FAILURE = 'ReplicaFailure';

/** The conditions after a sync whose create or delete failed with `failure` (undefined: it did not). */
export function replicaFailureConditions(conditions: readonly Condition[] | undefined, failure: { reason: 'FailedCreate' | 'FailedDelete'; message: string } | undefined, now: string): Condition[] | undefined {
  const existing = (conditions ?? []).find((c) => c.type === REPLICA_FAILURE);
  let next: Condition[] = [...(conditions ?? [])];
  if (failure && !existing) next = setCondition(next, { type: REPLICA_FAILURE, status: 'True', reason: failure.reason, message: failure.message }, now);
  if (!failure && existing) next = next.filter((c) => c.type !== REPLICA_FAILURE);
  return next.length ? next : undefined;
}
