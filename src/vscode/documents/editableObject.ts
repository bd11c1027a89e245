import { parse, stringify } from 'yaml';
import type { KubeObject } from '../../shared/k8s.ts';

// The text of an object opened for editing, and what saving it sends. The YAML carries the
// resourceVersion it was read at, so a save over someone else's change is a 409 Conflict (as
// `kubectl edit` does) instead of silently undoing it. What identifies the object cannot change.

export function editableYaml(obj: KubeObject): string {
  const { managedFields: _managedFields, ...metadata } = obj.metadata;
  return stringify({ ...obj, metadata }, { lineWidth: 0, aliasDuplicateObjects: false });
}

export interface Identity {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
}

/** Parses a saved text into the object to PUT; throws an Error that says what is wrong. */
export function parseEdited(text: string, identity: Identity): KubeObject {
  let value: unknown;
  try {
    value = parse(text);
  } catch (err) {
    throw new Error(`the YAML does not parse: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`, { cause: err });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('the document must be one object (a YAML mapping)');
  const obj = value as KubeObject;
  if (typeof obj.metadata !== 'object' || obj.metadata === null) throw new Error('metadata is missing');
  const changed: string[] = [];
  if (obj.apiVersion !== identity.apiVersion) changed.push(`apiVersion (was ${identity.apiVersion})`);
  if (obj.kind !== identity.kind) changed.push(`kind (was ${identity.kind})`);
  if ((obj.metadata.name ?? '') !== identity.name) changed.push(`metadata.name (was ${identity.name})`);
  if ((obj.metadata.namespace ?? '') !== identity.namespace) changed.push(`metadata.namespace (was ${identity.namespace || 'none'})`);
  if (changed.length) throw new Error(`${changed.join(', ')} cannot change on save — create a new object instead`);
  return obj;
}
