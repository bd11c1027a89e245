import type { KubeObject, OwnerReference } from '../../shared/k8s.ts';

// What the workload controllers ask of Pods, with the rules of k8s.io/kubernetes/pkg/api/v1/pod and
// pkg/controller: active, ready, available, and Pods made from a template for an owner.

export interface PodCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

interface PodStatusView {
  phase?: string;
  conditions?: PodCondition[];
}

function statusOf(pod: Readonly<KubeObject>): PodStatusView {
  return (pod.status ?? {}) as PodStatusView;
}

export function phaseOf(pod: Readonly<KubeObject>): string {
  return statusOf(pod).phase ?? 'Pending';
}

/** Not finished and not being deleted: what counts toward a controller's replicas. */
export function isActive(pod: Readonly<KubeObject>): boolean {
  const phase = phaseOf(pod);
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata.deletionTimestamp;
}

export function readyCondition(pod: Readonly<KubeObject>): PodCondition | undefined {
  return statusOf(pod).conditions?.find((c) => c.type === 'Ready');
}

export function isReady(pod: Readonly<KubeObject>): boolean {
  return readyCondition(pod)?.status === 'True';
}

/** Ready for at least minReadySeconds (podutil.IsPodAvailable). */
export function isAvailable(pod: Readonly<KubeObject>, minReadySeconds: number, now: number): boolean {
  const ready = readyCondition(pod);
  if (ready?.status !== 'True') return false;
  if (minReadySeconds <= 0) return true;
  const since = Date.parse(ready.lastTransitionTime ?? '');
  return Number.isFinite(since) && since + minReadySeconds * 1000 <= now;
}

export function isControlledBy(object: Readonly<KubeObject>, uid: string | undefined): boolean {
  return uid !== undefined && (object.metadata.ownerReferences ?? []).some((r) => r.controller && r.uid === uid);
}

export function controllerRef(owner: Readonly<KubeObject>, apiVersion: string, kind: string): OwnerReference {
  return { apiVersion, kind, name: owner.metadata.name ?? '', uid: owner.metadata.uid ?? '', controller: true, blockOwnerDeletion: true };
}

interface PodTemplate {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
}

/** A Pod for `owner` from its template, as controller.GetPodFromTemplate builds it. */
export function podFromTemplate(template: unknown, owner: OwnerReference, namespace: string, naming: { name?: string; generateName?: string }, extraLabels: Record<string, string> = {}): KubeObject {
  const t = (template ?? {}) as PodTemplate;
  const metadata: KubeObject['metadata'] = {
    namespace,
    labels: { ...(t.metadata?.labels ?? {}), ...extraLabels },
    ownerReferences: [owner],
  };
  if (naming.name) metadata.name = naming.name;
  else metadata.generateName = naming.generateName ?? `${owner.name}-`;
  if (t.metadata?.annotations) metadata.annotations = { ...t.metadata.annotations };
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec: structuredClone(t.spec ?? {}) };
}

/** ISO time without milliseconds, as the API server's metav1.Time. */
export function timeString(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
