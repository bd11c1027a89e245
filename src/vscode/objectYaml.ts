import { stringify } from 'yaml';
import type { KubeObject } from '../shared/k8s.ts';
import { redactSecret } from './redact.ts';

// How an object reads in a document, a diff and the timeline's details: YAML, Secrets redacted,
// managedFields left out (pages of noise nobody reads while debugging an informer) unless asked for.

export function objectToYaml(obj: KubeObject, showSecretValues = false, showManagedFields = false): string {
  const redacted = kindFirst(redactSecret(obj, showSecretValues));
  if (showManagedFields) return stringify(redacted, { lineWidth: 0, aliasDuplicateObjects: false });
  const { managedFields: _managedFields, ...metadata } = redacted.metadata ?? {};
  return stringify({ ...redacted, metadata }, { lineWidth: 0, aliasDuplicateObjects: false });
}

/**
 * apiVersion and kind on top, as kubectl prints them: a listed object gets them added after its
 * other fields (a list's items come without them), which put them at the document's end.
 */
function kindFirst(obj: KubeObject): KubeObject {
  const { apiVersion, kind, ...rest } = obj;
  return { ...(apiVersion !== undefined ? { apiVersion } : {}), ...(kind !== undefined ? { kind } : {}), ...rest } as KubeObject;
}
