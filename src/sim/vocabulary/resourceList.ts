import { Quantity, ZERO, quantityOf } from './quantity.ts';

// A ResourceList (`{cpu: "500m", pods: "1"}`) as exact quantities, and the arithmetic of
// k8s.io/apiserver's quota helpers (Add, Max, Mask, LessThanOrEqual) that quota evaluation uses.

export type ResourceList = Map<string, Quantity>;

/** The quantities of a JSON ResourceList (anything else is an empty list). */
export function resourceList(value: unknown): ResourceList {
  const out: ResourceList = new Map();
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return out;
  for (const [name, q] of Object.entries(value)) out.set(name, quantityOf(q));
  return out;
}

/** The JSON form, keys sorted as Go prints a map. */
export function toJson(list: ResourceList): Record<string, string> {
  return Object.fromEntries([...list.keys()].sort().map((k) => [k, list.get(k)!.toString()]));
}

export function add(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map(a);
  for (const [k, v] of b) out.set(k, (out.get(k) ?? ZERO).plus(v, 1n));
  return out;
}

/** a - b, a resource going under zero stays at zero (SubtractWithNonNegativeResult). */
export function subtractNonNegative(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map();
  for (const [k, v] of a) {
    const d = v.plus(b.get(k) ?? ZERO, -1n);
    out.set(k, d.compare(ZERO) < 0 ? new Quantity(0n, 1n, v.binary) : d);
  }
  return out;
}

/** The larger of each resource in either list. */
export function max(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map(a);
  for (const [k, v] of b) {
    const cur = out.get(k);
    if (!cur || v.compare(cur) > 0) out.set(k, v);
  }
  return out;
}

/** Only the named resources. */
export function mask(list: ResourceList, names: Iterable<string>): ResourceList {
  const out: ResourceList = new Map();
  for (const n of names) {
    const v = list.get(n);
    if (v) out.set(n, v);
  }
  return out;
}

export function removeZeros(list: ResourceList): ResourceList {
  return new Map([...list].filter(([, v]) => !v.isZero()));
}

/** The resources of `a` over their limit in `b` (a resource `b` does not name is not limited). */
export function exceeding(a: ResourceList, b: ResourceList): string[] {
  return [...a].filter(([k, v]) => b.has(k) && v.compare(b.get(k)!) > 0).map(([k]) => k);
}

/** `cpu=500m,memory=1Gi`, sorted, as the quota admission's messages print a list. */
export function prettyPrint(list: ResourceList): string {
  return [...list.keys()].sort().map((k) => `${k}=${list.get(k)!.toString()}`).join(',');
}
