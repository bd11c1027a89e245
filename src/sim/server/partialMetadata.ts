// client-go's metadata client (and controller-runtime's metadata-only caches) ask for objects as
// meta.k8s.io/v1 PartialObjectMetadata: kind, apiVersion and metadata only, for items, lists and
// watch events alike.
import type { KubeObject, ListMeta } from '../../shared/k8s.ts';

export function partialObjectMetadata(obj: Readonly<KubeObject>): { kind: string; apiVersion: string; metadata: unknown } {
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata };
}

export function partialObjectMetadataJson(obj: Readonly<KubeObject>): string {
  return JSON.stringify(partialObjectMetadata(obj));
}

export function partialObjectMetadataListJson(objects: readonly Readonly<KubeObject>[], listMeta: ListMeta): string {
  return JSON.stringify({ kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1', metadata: listMeta, items: objects.map(partialObjectMetadata) });
}
