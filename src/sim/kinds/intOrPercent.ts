import type { Cause } from '../../shared/apiErrors.ts';

// An IntOrString that must be a count or a percentage (ValidatePositiveIntOrPercent,
// IsNotMoreThan100Percent), with the value printed as Go's %#v prints an intstr.IntOrString.

const PERCENT = /^[0-9]+%$/;

export function goIntOrString(v: unknown): string {
  return typeof v === 'number' ? `intstr.IntOrString{Type:0, IntVal:${v}, StrVal:""}` : `intstr.IntOrString{Type:1, IntVal:0, StrVal:${JSON.stringify(String(v))}}`;
}

const invalidAt = (field: string, v: unknown, why: string): Cause => ({ reason: 'FieldValueInvalid', field, message: `Invalid value: ${goIntOrString(v)}: ${why}` });

export function validateIntOrPercent(v: unknown, field: string): Cause[] {
  if (v === undefined || v === null) return [];
  if (typeof v === 'number') return v < 0 ? [{ reason: 'FieldValueInvalid', field, message: `Invalid value: ${v}: must be greater than or equal to 0` }] : [];
  const s = String(v);
  if (!PERCENT.test(s)) return [invalidAt(field, v, "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')")];
  if (Number(s.slice(0, -1)) > 100) return [invalidAt(field, v, 'must not be greater than 100%')];
  return [];
}
