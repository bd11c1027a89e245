import type { KubeObject } from '../shared/k8s.ts';

// Transforms for SharedInformerOptions.transform (client-go's SetTransform): applied once to each
// object from the server, before the cache stores it and handlers see it.

/**
 * Leaves out `metadata.managedFields`: on a Pod they are a third of its JSON, and nothing an
 * informer's views or most controllers read. The object is copied, not changed: a backend may share it.
 */
export function dropManagedFields<T extends KubeObject>(obj: T): T {
  const metadata = obj.metadata;
  if (metadata?.managedFields === undefined) return obj;
  const { managedFields: _dropped, ...rest } = metadata;
  return { ...obj, metadata: rest };
}
