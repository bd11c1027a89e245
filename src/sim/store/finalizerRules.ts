import type { KubeObject } from '../../shared/k8s.ts';
import type { Cause } from '../../shared/apiErrors.ts';

/**
 * Once an object is being deleted no finalizer may be added. kube-apiserver checks this twice
 * (generic metadata validation, then the strategy's), so the Status lists the cause twice.
 */
export function noNewFinalizersWhileDeleting(cur: Readonly<KubeObject>, next: Readonly<KubeObject>): Cause[] {
  if (!cur.metadata.deletionTimestamp) return [];
  const before = new Set(cur.metadata.finalizers ?? []);
  const added = (next.metadata.finalizers ?? []).filter((f) => !before.has(f));
  if (added.length === 0) return [];
  const cause: Cause = {
    reason: 'FieldValueForbidden',
    field: 'metadata.finalizers',
    message: `Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(', ')}}`,
  };
  return [cause, { ...cause }];
}
