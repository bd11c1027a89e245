import { fieldDifferences } from './fieldDiff.ts';
import type { Identified } from './identity.ts';

// What the oracle does not compare. Some fields differ between any two runs by their nature (uids,
// resourceVersions, times, counts of how many writes it took); others differ between the
// unperturbed reference runs of this very controller and scenario, and are learned from them.

/** Fields whose value records history, not state: a correct controller may end with others after a perturbation. */
const HISTORY_FIELDS: readonly RegExp[] = [
  /^\.metadata\.(uid|resourceVersion|creationTimestamp|generation|managedFields|selfLink)(\W|$)/,
  /^\.metadata\.ownerReferences\[[^\]]*\]\.uid$/,
  /\.observedGeneration$/,
  /^\.metadata\.annotations\["deployment\.kubernetes\.io\/revision"\]$/,
];

/**
 * Fields the cluster assigns by where and when a Pod happened to be scheduled, per kind: the node,
 * its address and the Pod's IP (and the endpoints that copy them). With workload controllers on,
 * a perturbed run that creates two Deployments' Pods in another interleaving puts them on other
 * nodes with other IPs; no controller decides these, so no controller's bug shows only there.
 */
const PLACEMENT_FIELDS: readonly [kind: string, path: RegExp][] = [
  ['Pod', /^\.spec\.nodeName$/],
  ['Pod', /^\.status\.(hostIPs?|podIPs?)(\W|$)/],
  // Which Pod is listed where follows their IPs' order: the Pods themselves are compared.
  ['discovery.k8s.io/EndpointSlice', /^\.endpoints\[\d+\]\.(addresses|nodeName|zone|hints|targetRef)(\W|$)/],
  ['Endpoints', /^\.subsets\[\d+\]\.(addresses|notReadyAddresses)\[\d+\]\.(ip|nodeName|hostname|targetRef)(\W|$)/],
  // The API server allocates a Service's cluster IP and node ports in the order Services are created.
  ['Service', /^\.spec\.(clusterIPs?|healthCheckNodePort)(\W|$)/],
  ['Service', /^\.spec\.ports\[[^\]]*\]\.nodePort$/],
];

/** A headless Service's `None` is the controller's choice, not an allocation. */
const NOT_ALLOCATED = 'None';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export interface Masks {
  /** Objects present in some reference runs and not in others. */
  readonly unstableObjects: ReadonlySet<string>;
  /** Per object, the paths whose values differed between reference runs. */
  readonly unstablePaths: ReadonlyMap<string, ReadonlySet<string>>;
}

/** What varies between the reference runs (the first compared with each other). */
export function learnMasks(references: readonly Identified[]): Masks {
  const unstableObjects = new Set<string>();
  const unstablePaths = new Map<string, Set<string>>();
  const [first, ...others] = references;
  for (const other of others) {
    for (const id of new Set([...(first?.keys() ?? []), ...other.keys()])) {
      const a = first?.get(id);
      const b = other.get(id);
      if (!a || !b) {
        unstableObjects.add(id);
        continue;
      }
      for (const d of fieldDifferences(a, b)) {
        if (isHistoryField(d.path, d.expected, d.got)) continue;
        let paths = unstablePaths.get(id);
        if (!paths) unstablePaths.set(id, (paths = new Set()));
        paths.add(d.path);
      }
    }
  }
  return { unstableObjects, unstablePaths };
}

/** What varies, as a person reads it (`ConfigMap default/x .data.stamp`, or a whole object), the first `max`. */
export function varyingExamples(masks: Masks, max: number): string[] {
  const out: string[] = [];
  for (const [id, paths] of masks.unstablePaths) for (const path of paths) if (out.length < max) out.push(`${id} ${path}`);
  for (const id of masks.unstableObjects) if (out.length < max) out.push(`${id} (in some runs only)`);
  return out;
}

/** A field that records history by its path (resourceVersion, managedFields …), whatever its value. */
export function isHistoryPath(path: string): boolean {
  return HISTORY_FIELDS.some((r) => r.test(path));
}

export function isHistoryField(path: string, expected: unknown, got: unknown): boolean {
  if (isHistoryPath(path)) return true;
  return typeof expected === 'string' && typeof got === 'string' && TIMESTAMP.test(expected) && TIMESTAMP.test(got);
}

/** A field of object `id` (an identity: its kind first) the cluster assigns by placement or allocates. */
export function isPlacementField(id: string, path: string, expected?: unknown, got?: unknown): boolean {
  if (expected === NOT_ALLOCATED || got === NOT_ALLOCATED) return false;
  return PLACEMENT_FIELDS.some(([kind, r]) => id.startsWith(`${kind} `) && r.test(path));
}

/** Whether a difference at `path` of object `id` is one the oracle ignores. */
export function isMasked(masks: Masks, id: string, path: string, expected: unknown, got: unknown): boolean {
  if (isHistoryField(path, expected, got) || isPlacementField(id, path, expected, got)) return true;
  const paths = masks.unstablePaths.get(id);
  if (!paths) return false;
  for (const p of paths) if (path === p || path.startsWith(`${p}.`) || path.startsWith(`${p}[`)) return true;
  return false;
}
