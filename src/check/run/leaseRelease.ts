import type { SimClusterApi } from '../../sim/index.ts';
import type { CommittedWrite } from './controllerWrites.ts';

// A controller killed while it leads (leader election) leaves its Lease held until the lease
// expires: the restarted process waits leaseDurationSeconds (15 s in controller-runtime) of real
// time before it leads and starts its controllers, and a check's every restart cost that much.
// The wait is no part of what a crash tests, so once the old process is killed its Leases are let
// go as a shutdown with ReleaseOnCancel lets them go — the holder cleared — and the new process
// takes them on its first try.

const LEASES = { group: 'coordination.k8s.io', version: 'v1', resource: 'leases' };
const RELEASER = { client: { userAgent: 'controller-lab/check', tokenId: '' } };

/** Clears the holder of every Lease `user` wrote that still has one; answers how many it released. */
export function releaseLeases(cluster: SimClusterApi, writes: readonly CommittedWrite[], user: string): number {
  const keys = new Set(writes.filter((w) => w.writer === user && w.group === LEASES.group && w.resource === LEASES.resource).map((w) => `${w.namespace}/${w.name}`));
  let released = 0;
  for (const key of keys) {
    const [namespace, name] = key.split('/', 2) as [string, string];
    try {
      const lease = cluster.get(LEASES, namespace, name).object as { spec?: { holderIdentity?: string } };
      if (!lease.spec?.holderIdentity) continue;
      cluster.patch(LEASES, namespace, name, 'merge', { spec: { holderIdentity: null } }, undefined, RELEASER);
      released++;
    } catch {
      // Gone already, or taken meanwhile: nothing to let go.
    }
  }
  return released;
}
