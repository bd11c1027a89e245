import type { Cause } from '../../shared/apiErrors.ts';
import { sameValue } from './fieldErrors.ts';

// The rules ConfigMaps and Secrets share for their data maps (ValidateConfigMapKey and the 1 MiB
// total, k8s.io/kubernetes/pkg/apis/core/validation).

const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;
export const MAX_DATA_BYTES = 1024 * 1024;

export function validateDataKey(key: string, field: string): Cause[] {
  const causes: Cause[] = [];
  const bad = (message: string) => causes.push({ reason: 'FieldValueInvalid', field, message: `Invalid value: ${JSON.stringify(key)}: ${message}` });
  if (key.length > 253) bad('must be no more than 253 characters');
  if (!CONFIG_KEY.test(key)) {
    bad("a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')");
  } else if (key === '.' || key === '..') bad("must not be '.'");
  else if (key.startsWith('..')) bad("must not start with '..'");
  return causes;
}

/** The "[]: Too long" cause the API server gives a ConfigMap or Secret over 1 MiB of data. */
export function tooLong(total: number): Cause[] {
  return total > MAX_DATA_BYTES ? [{ reason: 'FieldValueTooLong', field: '[]', message: `Too long: must have at most ${MAX_DATA_BYTES} bytes` }] : [];
}

/** An `immutable: true` ConfigMap or Secret keeps its flag and its data (ValidateConfigMapUpdate, ValidateSecretUpdate). */
export function immutableData(before: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>, fields: readonly string[]): Cause[] {
  if (before.immutable !== true) return [];
  const why = 'Forbidden: field is immutable when `immutable` is set';
  const causes: Cause[] = [];
  if (after.immutable !== true) causes.push({ reason: 'FieldValueForbidden', field: 'immutable', message: why });
  for (const field of fields) {
    if (!sameValue(before[field], after[field])) causes.push({ reason: 'FieldValueForbidden', field, message: why });
  }
  return causes;
}
