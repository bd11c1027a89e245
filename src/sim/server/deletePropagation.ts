import type { DeleteOptions, RequestContext } from '../store/types.ts';
import type { ResourceInfo } from '../vocabulary/resourceInfo.ts';

// A delete that names no propagation (neither propagationPolicy nor orphanDependents) gets its
// kind's default, which kube-apiserver keeps for two kinds' v1 APIs for backwards compatibility:
// a ReplicationController's and a Job's dependents are orphaned, and a Job's delete says so in a
// warning. kubectl always names a propagation; raw API clients (and the e2e specs) do not.

const JOB_DELETE_WARNING = 'child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning';

/** `options` with the kind's default propagation when the request named none. */
export function withDefaultPropagation(info: ResourceInfo, options: DeleteOptions, ctx: RequestContext): DeleteOptions {
  if (options.propagationPolicy !== undefined || info.version !== 'v1') return options;
  const isJob = info.group === 'batch' && info.resource === 'jobs';
  const isReplicationController = info.group === '' && info.resource === 'replicationcontrollers';
  if (!isJob && !isReplicationController) return options;
  if (isJob && !ctx.warnings?.includes(JOB_DELETE_WARNING)) ctx.warnings?.push(JOB_DELETE_WARNING);
  return { ...options, propagationPolicy: 'Orphan' };
}
