import type { KubeObject } from '../../shared/k8s.ts';
import type { Cause } from '../../shared/apiErrors.ts';
import { isRecord } from './fieldErrors.ts';

// ValidateResourceQuotaSpec/Status's quantity rule: no hard limit (or usage) below zero.

const NEGATIVE = /^\s*-(?!0*(\.0*)?([a-zA-Z]*|[eE][+-]?\d+)?\s*$)/;

function negativeCauses(list: unknown, at: string): Cause[] {
  if (!isRecord(list)) return [];
  return Object.entries(list)
    .filter(([, v]) => (typeof v === 'string' && NEGATIVE.test(v)) || (typeof v === 'number' && v < 0))
    .map(([k, v]) => ({ reason: 'FieldValueInvalid', field: `${at}[${k}]`, message: `Invalid value: ${JSON.stringify(String(v).trim())}: must be greater than or equal to 0` }));
}

export function resourceQuotaCauses(o: Readonly<KubeObject>): Cause[] {
  const spec = isRecord(o.spec) ? o.spec : {};
  const status = isRecord(o.status) ? o.status : {};
  return [...negativeCauses(spec.hard, 'spec.hard'), ...negativeCauses(status.hard, 'status.hard'), ...negativeCauses(status.used, 'status.used')];
}
