import type { Cause } from '../../shared/apiErrors.ts';

// The causes of a 422 as apimachinery's field errors word them (k8s.io/apimachinery/pkg/util/
// validation/field): `Required value`, `Invalid value: "x": why`, `Unsupported value: "x":
// supported values: "a", "b"`, `Duplicate value: "x"`, `Forbidden: why`. Values print as Go's
// %v/%q/%#v would print them, so messages read as the API server's.

/** A value as field.Error prints it: strings quoted, numbers bare, maps and string lists in Go syntax. */
export function goValue(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return `[]string{${value.map((v) => JSON.stringify(v)).join(', ')}}`;
  if (typeof value === 'object' && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string')) {
    const entries = Object.entries(value as Record<string, string>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `map[string]string{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(', ')}}`;
  }
  return JSON.stringify(value);
}

const withDetail = (head: string, detail: string): string => (detail ? `${head}: ${detail}` : head);

export function required(field: string, detail = ''): Cause {
  return { reason: 'FieldValueRequired', field, message: withDetail('Required value', detail) };
}

export function invalid(field: string, value: unknown, detail: string): Cause {
  return { reason: 'FieldValueInvalid', field, message: withDetail(`Invalid value: ${goValue(value)}`, detail) };
}

export function notSupported(field: string, value: unknown, supported: readonly string[]): Cause {
  return { reason: 'FieldValueNotSupported', field, message: withDetail(`Unsupported value: ${goValue(value)}`, supported.length ? `supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}` : '') };
}

export function duplicate(field: string, value: unknown): Cause {
  return { reason: 'FieldValueDuplicate', field, message: `Duplicate value: ${goValue(value)}` };
}

export function forbidden(field: string, detail: string): Cause {
  return { reason: 'FieldValueForbidden', field, message: withDetail('Forbidden', detail) };
}

/** ValidateImmutableField: `Invalid value: <new>: field is immutable` when the value changed (unset and null are the same). */
export function immutable(field: string, before: unknown, after: unknown): Cause[] {
  return sameValue(before, after) ? [] : [invalid(field, after, 'field is immutable')];
}

/** Empty strings, lists and maps decode to Go's zero values, as absent ones do. */
function isZero(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0) || (isRecord(v) && Object.keys(v).length === 0);
}

/** apimachinery's semantic equality, roughly: absent, null and empty are the same. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (isZero(a) || isZero(b)) return isZero(a) && isZero(b);
  if (typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ao), ...Object.keys(bo)]);
  for (const k of keys) if (!sameValue(ao[k], bo[k])) return false;
  return true;
}

/** ValidateNonnegativeField. */
export function nonNegative(field: string, value: unknown): Cause[] {
  return typeof value === 'number' && value < 0 ? [invalid(field, value, 'must be greater than or equal to 0')] : [];
}

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The maps of a list field (other items are the decoder's business). */
export function records(v: unknown): Record<string, unknown>[] {
  return Array.isArray(v) ? v.filter(isRecord) : [];
}
