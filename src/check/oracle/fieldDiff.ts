// Where two JSON values differ, as paths a person reads: `.spec.replicas`,
// `.metadata.labels["app.kubernetes.io/name"]`, `.status.conditions[type=Available].status`. Lists
// whose items each carry a distinct `name` or `type` (containers, ports, conditions) are compared
// item by item under that key, so a reordered list is no difference; other lists by position.

export interface FieldDifference {
  path: string;
  /** undefined: the field is absent on that side. */
  expected: unknown;
  got: unknown;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

export function fieldDifferences(expected: unknown, got: unknown, path = ''): FieldDifference[] {
  const out: FieldDifference[] = [];
  walk(expected as Json | undefined, got as Json | undefined, path, out);
  return out;
}

function walk(a: Json | undefined, b: Json | undefined, path: string, out: FieldDifference[]): void {
  if (a === b) return;
  if (isObject(a) && isObject(b)) {
    for (const key of unionKeys(a, b)) walk(a[key], b[key], `${path}${member(key)}`, out);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const key = itemKey(a);
    if (key && key === itemKey(b)) {
      const left = indexBy(a, key);
      const right = indexBy(b, key);
      for (const k of unionKeys(left, right)) walk(left[k], right[k], `${path}[${key}=${k}]`, out);
      return;
    }
    if (a.length === b.length) {
      a.forEach((item, i) => walk(item, b[i], `${path}[${i}]`, out));
      return;
    }
  }
  if (a !== undefined && b !== undefined && JSON.stringify(a) === JSON.stringify(b)) return;
  out.push({ path: path || '.', expected: a, got: b });
}

function isObject(v: Json | undefined): v is { [k: string]: Json } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function unionKeys(a: object, b: object): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
}

/** `.name` for an identifier, `["a.b/c"]` for anything else. */
export function member(key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/** `name` or `type` when every item is an object with a distinct string value for it. */
export function itemKey(items: Json[]): 'name' | 'type' | undefined {
  if (items.length === 0) return undefined;
  for (const key of ['name', 'type'] as const) {
    const values = items.map((i) => (isObject(i) && typeof i[key] === 'string' ? i[key] : undefined));
    if (values.every((v) => v !== undefined) && new Set(values).size === values.length) return key;
  }
  return undefined;
}

function indexBy(items: Json[], key: 'name' | 'type'): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const item of items) out[(item as Record<string, string>)[key] as string] = item;
  return out;
}
