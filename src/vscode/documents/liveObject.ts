import { collectionPath } from '../../kube/index.ts';
import type { KubeList, KubeObject } from '../../shared/k8s.ts';
import type { Lab } from '../model/lab.ts';
import type { DescribedEvent } from './describeText.ts';
import { splitKey } from '../../shared/keys.ts';

// An object as the cluster has it now (not the informer's copy): what Edit reads and writes, what
// Delete removes and what Describe shows. Addressed as the tree does, by informer and key.

export interface LiveObjectRef {
  informerId: string;
  key: string;
}

export function locate(lab: Lab, ref: LiveObjectRef) {
  const found = lab.findInformer(ref.informerId);
  if (!found?.cluster.backend) throw new Error(`the informer ${ref.informerId} is not running`);
  const { namespace, name } = splitKey(ref.key);
  const resource = found.informer.resource;
  const path = `${collectionPath(resource, resource.namespaced ? namespace : '')}/${encodeURIComponent(name)}`;
  return { cluster: found.cluster.backend.cluster, clusterLabel: found.cluster.label, resource, namespace, name, path };
}

export function readLive(lab: Lab, ref: LiveObjectRef): Promise<KubeObject> {
  const { cluster, path } = locate(lab, ref);
  return cluster.request<KubeObject>(path);
}

export function replaceLive(lab: Lab, ref: LiveObjectRef, obj: KubeObject): Promise<KubeObject> {
  const { cluster, path } = locate(lab, ref);
  return cluster.request<KubeObject>(path, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(obj) });
}

export async function deleteLive(lab: Lab, ref: LiveObjectRef): Promise<void> {
  const { cluster, path } = locate(lab, ref);
  await cluster.request(path, { method: 'DELETE' });
}

/** The Events that name the object (undefined: they could not be listed, e.g. forbidden). */
export async function eventsFor(lab: Lab, ref: LiveObjectRef, obj: KubeObject): Promise<DescribedEvent[] | undefined> {
  const { cluster, namespace } = locate(lab, ref);
  try {
    const list = await cluster.request<KubeList>(namespace ? `/api/v1/namespaces/${encodeURIComponent(namespace)}/events` : '/api/v1/events');
    return (list.items as (KubeObject & DescribedEvent & { involvedObject?: { uid?: string; name?: string; kind?: string } })[])
      .filter((e) => (e.involvedObject?.uid && e.involvedObject.uid === obj.metadata.uid) || (e.involvedObject?.name === obj.metadata.name && e.involvedObject?.kind === obj.kind))
      .sort((a, b) => Date.parse(a.lastTimestamp ?? a.eventTime ?? '') - Date.parse(b.lastTimestamp ?? b.eventTime ?? ''));
  } catch {
    return undefined;
  }
}
