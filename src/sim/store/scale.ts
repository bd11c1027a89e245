import type { KubeObject } from '../../shared/k8s.ts';
import type { ResourceInfo } from '../vocabulary/resourceInfo.ts';
import { labelSelectorText } from '../../shared/labelSelector.ts';
import { readPath, writePath } from '../vocabulary/objectMeta.ts';

// The /scale subresource: an autoscaling/v1 Scale view of a workload's replica count.

/** labels.SelectorFromSet(set).String(): `k=v` pairs sorted by key. */
function labelSetText(set: unknown): string {
  if (typeof set !== 'object' || set === null) return '';
  const labels = set as Record<string, string>;
  return Object.keys(labels).sort().map((k) => `${k}=${labels[k]}`).join(',');
}

export function toScale(info: ResourceInfo, obj: Readonly<KubeObject>): KubeObject {
  const mapping = info.scale;
  const spec = Number(readPath(obj, mapping?.specReplicasPath ?? 'spec.replicas') ?? 0);
  const status = Number(readPath(obj, mapping?.statusReplicasPath ?? 'status.replicas') ?? 0);
  const selectorValue = mapping?.labelSelectorPath ? readPath(obj, mapping.labelSelectorPath) : undefined;
  const selector = typeof selectorValue === 'string' ? selectorValue : mapping?.selectorIsLabelSet ? labelSetText(selectorValue) : labelSelectorText(selectorValue);
  const m = obj.metadata;
  const metadata: KubeObject['metadata'] = { name: m.name, resourceVersion: m.resourceVersion, uid: m.uid, creationTimestamp: m.creationTimestamp };
  if (m.namespace) metadata.namespace = m.namespace;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata,
    spec: { replicas: Number.isFinite(spec) ? spec : 0 },
    status: { replicas: Number.isFinite(status) ? status : 0, ...(selector ? { selector } : {}) },
  };
}

/** Writes a Scale's spec.replicas into a (mutable) copy of the parent. */
export function applyScale(info: ResourceInfo, parent: KubeObject, scale: Readonly<KubeObject>): void {
  const replicas = (scale.spec as { replicas?: unknown } | undefined)?.replicas;
  writePath(parent as Record<string, unknown>, info.scale?.specReplicasPath ?? 'spec.replicas', typeof replicas === 'number' ? replicas : 0);
}
