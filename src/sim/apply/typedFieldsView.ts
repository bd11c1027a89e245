import type { KubeObject } from '../../shared/k8s.ts';
import { encodeAsGo } from '../goTypes/goEncoding.ts';

// kube-apiserver's field manager reads a built-in object through its Go type, as the unstructured
// converter gives it back, and compares a new one with the zero value of its type: an omitempty
// field left empty (`env: null`, `ports: []`, `nodeSelector: {}`) is not there, a null is no
// value (a template's `creationTimestamp: null`, which Go clients send with every object), and an
// empty struct the zero object has too (a Namespace's `spec: {}`) did not change. So a create owns
// none of them. A custom resource is read as it was sent, its nulls and empty objects owned.

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isEmptyObject = (v: unknown): boolean => isObject(v) && Object.keys(v).length === 0;

function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = withoutNulls(v);
  return out;
}

/** Drops the empty objects that are empty in the zero object too. */
function withoutZeroParts(value: Json, zero: Json): void {
  for (const [k, z] of Object.entries(zero)) {
    const v = value[k];
    if (isEmptyObject(v) && isEmptyObject(z)) delete value[k];
    else if (isObject(v) && isObject(z)) withoutZeroParts(v, z);
  }
}

/** The view of a new built-in object its creator's fields are read from (a copy; others as they are). */
export function typedFieldsView(obj: KubeObject, builtin: boolean): KubeObject {
  if (!builtin) return obj;
  const view = withoutNulls(encodeAsGo(structuredClone(obj))) as KubeObject;
  const zero = withoutNulls(encodeAsGo({ apiVersion: obj.apiVersion, kind: obj.kind } as Json)) as Json;
  withoutZeroParts(view as unknown as Json, zero);
  return view;
}
