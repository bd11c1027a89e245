import type { KubeObject } from './k8s.ts';

/** The cache key client-go uses (MetaNamespaceKeyFunc): `namespace/name`, or `name` when cluster-scoped. */
export function objectKey(obj: Readonly<Pick<KubeObject, 'metadata'>>): string {
  const { namespace, name } = obj.metadata;
  if (!name) throw new Error('object has no metadata.name');
  return namespace ? `${namespace}/${name}` : name;
}

export function splitKey(key: string): { namespace: string; name: string } {
  const slash = key.indexOf('/');
  return slash < 0 ? { namespace: '', name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}
