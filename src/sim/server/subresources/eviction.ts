import type { KubeObject } from '../../../shared/k8s.ts';
import type { ApiError } from '../../../shared/apiError.ts';
import { labelSelectorText, parseLabelSelector } from '../../../shared/labelSelector.ts';
import { conflict } from '../../../shared/apiErrors.ts';
import type { DeleteOptions, RequestContext } from '../../store/types.ts';
import type { ResourceRequest } from '../resourceRequest.ts';
import { sendJson } from '../responses.ts';
import { apiError } from '../status.ts';
import { CREATED_STATUS, readActionBody, requireSameName, requireSameNamespace } from './actionBody.ts';

// POST /api/v1/namespaces/{ns}/pods/{name}/eviction, what `kubectl drain` and the descheduler send:
// the Pod is deleted with the Eviction's DeleteOptions unless a PodDisruptionBudget forbids it, as
// kube-apiserver's EvictionREST decides (pkg/registry/core/pod/storage/eviction.go):
//   - a Pod that is Pending, Succeeded, Failed or already terminating is deleted without a look at budgets;
//   - more than one budget selecting the Pod is a 500; none lets it go;
//   - with one, an unready Pod goes if the budget is healthy (or says AlwaysAllow); otherwise the
//     budget must allow a disruption: its status then counts one fewer and records the Pod in
//     disruptedPods, else 429 "Cannot evict pod as it would violate the pod's disruption budget.".
// The Pod gets a DisruptionTarget condition before it is deleted, as with PodDisruptionConditions on.

const PODS = { group: '', version: 'v1', resource: 'pods' };
const PDBS = { group: 'policy', version: 'v1', resource: 'poddisruptionbudgets' };

type Pod = KubeObject & { status?: { phase?: string; conditions?: { type?: string; status?: string }[] } };
type Pdb = KubeObject & {
  spec?: { selector?: unknown; unhealthyPodEvictionPolicy?: string };
  status?: { observedGeneration?: number; disruptionsAllowed?: number; currentHealthy?: number; desiredHealthy?: number; disruptedPods?: Record<string, string>; conditions?: Record<string, unknown>[] };
};

const MAX_DISRUPTED_PODS = 2000;

function tooManyRequests(message: string, cause: string): ApiError {
  return apiError(429, message, 'TooManyRequests', { causes: [{ reason: 'DisruptionBudget', message: cause }] });
}

function forbiddenByBudget(name: string, why: string): ApiError {
  return apiError(403, `poddisruptionbudgets.policy "${name}" is forbidden: ${why}`, 'Forbidden', { name, group: 'policy', kind: 'poddisruptionbudget' });
}

const VIOLATION = "Cannot evict pod as it would violate the pod's disruption budget.";

function canIgnoreBudget(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || Boolean(pod.metadata.deletionTimestamp);
}

function isReady(pod: Pod): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** policy/v1 semantics: a null selector selects nothing, an empty one every Pod of the namespace. */
function budgetsFor(r: ResourceRequest, pod: Pod): Pdb[] {
  const list = r.cluster.list(PDBS, { namespace: pod.metadata.namespace ?? '' }, r.ctx);
  return list.items.map((i) => i.object as Pdb).filter((pdb) => {
    const selector = pdb.spec?.selector;
    if (selector === undefined || selector === null) return false;
    return selectorMatches(selector, pod.metadata.labels ?? {});
  });
}

function selectorMatches(selector: unknown, labels: Record<string, string>): boolean {
  return parseLabelSelector(labelSelectorText(selector)).matches(labels);
}

/** checkAndDecrement: the budget must allow one more disruption; it then records this Pod as disrupted. */
function takeDisruption(r: ResourceRequest, pdb: Pdb, podName: string, ctx: RequestContext): void {
  const name = pdb.metadata.name ?? '';
  const status = pdb.status ?? {};
  if ((status.observedGeneration ?? 0) < (pdb.metadata.generation ?? 0)) throw tooManyRequests(VIOLATION, `The disruption budget ${name} is still being processed by the server.`);
  const allowed = status.disruptionsAllowed ?? 0;
  if (allowed < 0) throw forbiddenByBudget(name, 'pdb disruptions allowed is negative');
  if (Object.keys(status.disruptedPods ?? {}).length > MAX_DISRUPTED_PODS) throw forbiddenByBudget(name, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
  if (allowed === 0) throw tooManyRequests(VIOLATION, `The disruption budget ${name} needs ${status.desiredHealthy ?? 0} healthy pods and has ${status.currentHealthy ?? 0} currently`);
  if (ctx.dryRun) return;
  const now = new Date(r.cluster.clock.now()).toISOString().replace(/\.\d+Z$/, 'Z');
  const next: Pdb['status'] = { ...status, disruptionsAllowed: allowed - 1, disruptedPods: { ...status.disruptedPods, [podName]: now } };
  if (allowed - 1 === 0) {
    const others = (status.conditions ?? []).filter((c) => c['type'] !== 'DisruptionAllowed');
    const previous = (status.conditions ?? []).find((c) => c['type'] === 'DisruptionAllowed');
    const since = previous?.['status'] === 'False' ? previous['lastTransitionTime'] : now;
    next.conditions = [...others, { type: 'DisruptionAllowed', status: 'False', observedGeneration: status.observedGeneration ?? 0, lastTransitionTime: since, reason: 'InsufficientPods', message: '' }];
  }
  r.cluster.update(PDBS, pdb.metadata.namespace ?? '', name, { ...pdb, status: next } as KubeObject, 'status', r.ctx);
}

function deleteOptionsOf(eviction: KubeObject, ctx: RequestContext): DeleteOptions {
  const given = (eviction as { deleteOptions?: Record<string, unknown> | null }).deleteOptions ?? {};
  const options: DeleteOptions = {};
  if (typeof given['gracePeriodSeconds'] === 'number') options.gracePeriodSeconds = given['gracePeriodSeconds'];
  const policy = given['propagationPolicy'];
  if (policy === 'Foreground' || policy === 'Background' || policy === 'Orphan') options.propagationPolicy = policy;
  const pre = given['preconditions'] as { uid?: unknown; resourceVersion?: unknown } | undefined;
  if (pre && typeof pre === 'object') {
    options.preconditions = {};
    if (typeof pre.uid === 'string') options.preconditions.uid = pre.uid;
    if (typeof pre.resourceVersion === 'string') options.preconditions.resourceVersion = pre.resourceVersion;
  }
  const dryRun = given['dryRun'];
  if (Array.isArray(dryRun) && dryRun.length > 0) {
    if (dryRun.some((d) => d !== 'All')) throw apiError(500, `Internal error occurred: invalid dry run option: ${JSON.stringify(dryRun)}`, 'InternalError');
    ctx.dryRun = true;
  }
  return options;
}

/**
 * The condition the eviction leaves on the Pod before deleting it, written over the Pod as stored
 * (the delete's preconditions are checked against it); answers the Pod's new resourceVersion.
 */
function markDisrupted(r: ResourceRequest, pod: Pod, options: DeleteOptions, ctx: RequestContext): string | undefined {
  if (ctx.dryRun) return undefined;
  const name = pod.metadata.name ?? '';
  const pre = options.preconditions;
  if (pre?.uid && pre.uid !== pod.metadata.uid) {
    throw conflict('', 'Pod', name, `the UID in the precondition (${pre.uid}) does not match the UID in record (${pod.metadata.uid ?? ''}). The object might have been deleted and then recreated`);
  }
  if (pre?.resourceVersion && pre.resourceVersion !== pod.metadata.resourceVersion) {
    throw conflict('', 'Pod', name, `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${pod.metadata.resourceVersion ?? ''}). The object might have been modified`);
  }
  const now = new Date(r.cluster.clock.now()).toISOString().replace(/\.\d+Z$/, 'Z');
  const conditions = (pod.status?.conditions ?? []).filter((c) => c.type !== 'DisruptionTarget');
  const status = { ...pod.status, conditions: [...conditions, { type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime: now, reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' }] };
  const updated = r.cluster.update(PODS, pod.metadata.namespace ?? '', name, { ...pod, status } as KubeObject, 'status', r.ctx);
  return updated.object.metadata.resourceVersion;
}

/** Deletes only the Pod as it was judged: one that changed meanwhile (became ready) is not deleted. */
function enforceResourceVersion(options: DeleteOptions, pod: Pod): void {
  if (options.preconditions?.resourceVersion) return;
  options.preconditions = { ...options.preconditions, resourceVersion: pod.metadata.resourceVersion ?? '' };
}

export async function serveEviction(r: ResourceRequest): Promise<void> {
  const ctx = r.query.writeContext(r.ctx);
  const eviction = await readActionBody(r, { apiVersion: 'policy/v1', kind: 'Eviction', alsoAccepted: ['policy/v1beta1'] }, ctx);
  requireSameName(eviction, r.target.name, 'Eviction');
  requireSameNamespace(eviction, r.target.namespace);
  const options = deleteOptionsOf(eviction, ctx);
  const pod = r.cluster.get(PODS, r.target.namespace, r.target.name, undefined, r.ctx).object as Pod;

  if (!canIgnoreBudget(pod)) {
    const budgets = budgetsFor(r, pod);
    if (budgets.length > 1) throw apiError(500, 'Internal error occurred: This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.', 'InternalError');
    const pdb = budgets[0];
    if (pdb) {
      const status = pdb.status ?? {};
      const unhealthyMayGo = !isReady(pod) && (pdb.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow' || ((status.currentHealthy ?? 0) >= (status.desiredHealthy ?? 0) && (status.desiredHealthy ?? 0) > 0));
      if (unhealthyMayGo) enforceResourceVersion(options, pod);
      else takeDisruption(r, pdb, pod.metadata.name ?? '', ctx);
    }
  } else if (pod.status?.phase === 'Pending' && !pod.metadata.deletionTimestamp) {
    enforceResourceVersion(options, pod);
  }
  const rv = markDisrupted(r, pod, options, ctx);
  if (rv && options.preconditions?.resourceVersion) options.preconditions.resourceVersion = rv;
  r.cluster.delete(PODS, r.target.namespace, r.target.name, options, ctx);
  await r.cluster.whenDurable();
  sendJson(r.res, 201, CREATED_STATUS);
}
