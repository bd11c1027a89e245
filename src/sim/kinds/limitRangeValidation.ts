import type { KubeObject } from '../../shared/k8s.ts';
import type { Cause } from '../../shared/apiErrors.ts';
import { isRecord, records } from './fieldErrors.ts';
import { compareQuantities, goQuantityValue, parseGoQuantity, quantityString, type GoQuantity } from '../vocabulary/goQuantity.ts';

// ValidateLimitRange: one item per type; per resource, min ≤ default request ≤ default ≤ max and a
// max limit/request ratio of at least 1 that max/min allows; a Pod item has no defaults, a PVC item
// bounds storage; resources that cannot overcommit default their request to their limit. Each cause
// quotes the quantity as Go prints the struct, as kube-apiserver's do. (kube-apiserver walks the
// resources in map order, so with several resources its causes come in any order; here, by name.)

type Quantities = Map<string, GoQuantity>;

function quantities(list: unknown): Quantities {
  const out: Quantities = new Map();
  if (!isRecord(list)) return out;
  for (const [k, v] of Object.entries(list)) {
    const q = typeof v === 'string' || typeof v === 'number' ? parseGoQuantity(String(v).trim()) : undefined;
    if (q) out.set(k, q);
  }
  return out;
}

const invalid = (field: string, q: GoQuantity, why: string): Cause => ({ reason: 'FieldValueInvalid', field, message: `Invalid value: ${goQuantityValue(q)}: ${why}` });

/** IsOvercommitAllowed: native resources (no domain, or a kubernetes.io one) but hugepages. */
function overcommitAllowed(name: string): boolean {
  const native = !name.includes('/') || name.includes('kubernetes.io/');
  return native && !name.startsWith('hugepages-');
}

export function limitRangeCauses(o: Readonly<KubeObject>): Cause[] {
  const spec = isRecord(o.spec) ? o.spec : {};
  const causes: Cause[] = [];
  const types = new Set<unknown>();
  records(spec.limits).forEach((limit, i) => {
    const at = `spec.limits[${i}]`;
    if (types.has(limit.type)) causes.push({ reason: 'FieldValueDuplicate', field: `${at}.type`, message: `Duplicate value: ${JSON.stringify(limit.type)}` });
    types.add(limit.type);
    const max = quantities(limit.max);
    const min = quantities(limit.min);
    const isPod = limit.type === 'Pod';
    if (isPod) {
      if (isRecord(limit.default) && Object.keys(limit.default).length > 0) causes.push({ reason: 'FieldValueForbidden', field: `${at}.default`, message: 'Forbidden: may not be specified when `type` is \'Pod\'' });
      if (isRecord(limit.defaultRequest) && Object.keys(limit.defaultRequest).length > 0) causes.push({ reason: 'FieldValueForbidden', field: `${at}.defaultRequest`, message: 'Forbidden: may not be specified when `type` is \'Pod\'' });
    }
    const defaults = isPod ? new Map() as Quantities : quantities(limit.default);
    const requests = isPod ? new Map() as Quantities : quantities(limit.defaultRequest);
    if (limit.type === 'PersistentVolumeClaim' && !min.has('storage') && !max.has('storage')) {
      causes.push({ reason: 'FieldValueRequired', field: `${at}.limits`, message: 'Required value: either minimum or maximum storage value is required, but neither was provided' });
    }
    const ratios = quantities(limit.maxLimitRequestRatio);
    const keys = [...new Set([...max.keys(), ...min.keys(), ...defaults.keys(), ...requests.keys(), ...ratios.keys()])].sort();
    for (const k of keys) {
      const [lo, hi, def, req, ratio] = [min.get(k), max.get(k), defaults.get(k), requests.get(k), ratios.get(k)];
      const s = quantityString;
      const above = (a: GoQuantity | undefined, b: GoQuantity | undefined): boolean => a !== undefined && b !== undefined && compareQuantities(a, b) > 0;
      if (above(lo, hi)) causes.push(invalid(`${at}.min[${k}]`, lo!, `min value ${s(lo!)} is greater than max value ${s(hi!)}`));
      if (above(lo, req)) causes.push(invalid(`${at}.defaultRequest[${k}]`, req!, `min value ${s(lo!)} is greater than default request value ${s(req!)}`));
      if (above(req, hi)) causes.push(invalid(`${at}.defaultRequest[${k}]`, req!, `default request value ${s(req!)} is greater than max value ${s(hi!)}`));
      if (above(req, def)) causes.push(invalid(`${at}.defaultRequest[${k}]`, req!, `default request value ${s(req!)} is greater than default limit value ${s(def!)}`));
      if (above(lo, def)) causes.push(invalid(`${at}.default[${k}]`, lo!, `min value ${s(lo!)} is greater than default value ${s(def!)}`));
      if (above(def, hi)) causes.push(invalid(`${at}.default[${k}]`, hi!, `default value ${s(def!)} is greater than max value ${s(hi!)}`));
      if (ratio && ratio.num < ratio.den) causes.push(invalid(`${at}.maxLimitRequestRatio[${k}]`, ratio, `ratio ${s(ratio)} is less than 1`));
      if (ratio && lo && hi && lo.num !== 0n) {
        const limit = Number(hi.num * lo.den) / Number(lo.num * hi.den);
        if (Number(ratio.num) / Number(ratio.den) > limit) causes.push(invalid(`${at}.maxLimitRequestRatio[${k}]`, ratio, `ratio ${s(ratio)} is greater than max/min = ${limit.toFixed(6)}`));
      }
      if (!overcommitAllowed(k) && def && req && compareQuantities(def, req) !== 0) {
        causes.push(invalid(`${at}.defaultRequest[${k}]`, req, `default value ${s(def)} must equal to defaultRequest value ${s(req)} in ${k}`));
      }
    }
  });
  return causes;
}
