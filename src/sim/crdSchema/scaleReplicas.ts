import type { Cause } from '../../shared/apiErrors.ts';
import type { KubeObject } from '../../shared/k8s.ts';
import type { ScaleMapping } from '../vocabulary/resourceInfo.ts';

// A custom resource with a scale subresource has its replica counts checked on every write, not
// only through /scale: the replicas at specReplicasPath (on a create or update of the resource)
// and at statusReplicasPath (on those and on /status) must be integers from 0 to 2^31-1, as
// apiextensions' ValidateScaleSpec and ValidateScaleStatus require. The field is the path as the
// CRD writes it (`.spec.replicas`).

const MAX_INT32 = 2147483647;

/** Go's %T of a decoded JSON value. */
function goTypeName(v: unknown): string {
  if (v === null) return '<nil>';
  if (Array.isArray(v)) return '[]interface {}';
  if (typeof v === 'object') return 'map[string]interface {}';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  return typeof v === 'boolean' ? 'bool' : 'string';
}

/** unstructured.NestedFieldNoCopy along a `.a.b` path: the value, or undefined where the path ends early. */
function valueAt(obj: unknown, path: string): unknown {
  let v: unknown = obj;
  for (const key of path.replace(/^\./, '').split('.')) {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

function replicasProblems(obj: KubeObject, scalePath: string): Cause[] {
  const v = valueAt(obj, scalePath);
  if (v === undefined) return [];
  // A CRD's scale paths begin with a dot (its validation requires it), as the field is named.
  const path = `.${scalePath.replace(/^\./, '')}`;
  const bad = (value: unknown, why: string): Cause[] => [{ reason: 'FieldValueInvalid', field: path, message: `Invalid value: ${String(value)}: ${why}` }];
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    return bad(0, `${path} accessor error: ${v === null ? '<nil>' : typeof v === 'object' ? JSON.stringify(v) : String(v)} is of the type ${goTypeName(v)}, expected int64`);
  }
  if (v < 0) return bad(v, 'should be a non-negative integer');
  if (v > MAX_INT32) return bad(v, `should be less than or equal to ${MAX_INT32}`);
  return [];
}

/** The scale checks of a write: spec and status replicas for the resource itself, status replicas alone for /status. */
export function validateScaleReplicas(scale: ScaleMapping | undefined, obj: KubeObject, statusWrite: boolean): Cause[] {
  if (!scale) return [];
  return [...(statusWrite ? [] : replicasProblems(obj, scale.specReplicasPath)), ...replicasProblems(obj, scale.statusReplicasPath)];
}
