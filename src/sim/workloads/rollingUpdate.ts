// The arithmetic of a Deployment's rolling update (pkg/controller/deployment/util): how far the
// new ReplicaSet may grow and the old ones shrink in one step, from maxSurge and maxUnavailable.

/** An int-or-percent against `total`, rounded up or down as the field's rules say. */
export function resolveIntOrPercent(value: unknown, total: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.endsWith('%')) {
    const pct = Number(value.slice(0, -1));
    if (!Number.isFinite(pct)) return 0;
    const exact = (pct * total) / 100;
    return roundUp ? Math.ceil(exact) : Math.floor(exact);
  }
  const n = Number(value);
  return Number.isFinite(n) ? n : 0;
}

/** maxSurge and maxUnavailable resolved; both zero would stall, so maxUnavailable becomes 1 (ResolveFenceposts). */
export function fenceposts(maxSurge: unknown, maxUnavailable: unknown, replicas: number): { surge: number; unavailable: number } {
  const surge = resolveIntOrPercent(maxSurge ?? '25%', replicas, true);
  let unavailable = resolveIntOrPercent(maxUnavailable ?? '25%', replicas, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

export interface ReplicaSetCounts {
  /** spec.replicas */
  replicas: number;
  /** status.availableReplicas */
  available: number;
}

/** The new ReplicaSet's next size during a rolling update (NewRSNewReplicas). */
export function newReplicaSetSize(desired: number, surge: number, newRs: ReplicaSetCounts, all: readonly ReplicaSetCounts[]): number {
  if (newRs.replicas >= desired) return desired;
  const current = all.reduce((n, rs) => n + rs.replicas, 0);
  const maxTotal = desired + surge;
  if (current >= maxTotal) return newRs.replicas;
  return newRs.replicas + Math.min(maxTotal - current, desired - newRs.replicas);
}

/**
 * How many old replicas may go now (reconcileOldReplicaSets): never below
 * desired − maxUnavailable available Pods, counting the new ReplicaSet's not-yet-available ones
 * as unavailable.
 */
export function oldReplicasToRemove(desired: number, unavailable: number, newRs: ReplicaSetCounts, old: readonly ReplicaSetCounts[]): { unhealthy: number; healthy: number } {
  const all = [newRs, ...old];
  const allPods = all.reduce((n, rs) => n + rs.replicas, 0);
  const minAvailable = desired - unavailable;
  const newUnavailable = newRs.replicas - newRs.available;
  const maxScaledDown = allPods - minAvailable - newUnavailable;
  if (maxScaledDown <= 0) return { unhealthy: 0, healthy: 0 };
  // Unhealthy old replicas go first: removing them costs no availability.
  const oldUnhealthy = old.reduce((n, rs) => n + Math.max(0, rs.replicas - rs.available), 0);
  const unhealthy = Math.min(oldUnhealthy, maxScaledDown);
  const available = all.reduce((n, rs) => n + rs.available, 0);
  const healthy = Math.max(0, Math.min(available - minAvailable, maxScaledDown - unhealthy));
  return { unhealthy, healthy };
}
