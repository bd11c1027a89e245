// One step of a field path, as structured-merge-diff names it in `fieldsV1` keys:
// `f:name` (a field of a map), `k:{"name":"web"}` (an associative list item by its keys),
// `v:"x"` (a set list item by value), `i:0` (a list item by index). Keys sort in the order the
// API server writes them: fields, then keys, then values, then indices.

export type Scalar = string | number | boolean | null;

const TYPE_RANK: Record<string, number> = { f: 0, k: 1, v: 2, i: 3 };

export const fieldElement = (name: string): string => `f:${name}`;
export const valueElement = (value: unknown): string => `v:${JSON.stringify(value)}`;
export const indexElement = (index: number): string => `i:${index}`;

/** `k:{…}` with the key fields sorted by name, as the API server encodes them. */
export function keyElement(fields: readonly (readonly [string, unknown])[]): string {
  const sorted = [...fields].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `k:{${sorted.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;
}

function rankOfValue(v: unknown): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  return 3;
}

function compareValues(a: unknown, b: unknown): number {
  const ra = rankOfValue(a);
  const rb = rankOfValue(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  const ja = JSON.stringify(a);
  const jb = JSON.stringify(b);
  return ja < jb ? -1 : ja > jb ? 1 : 0;
}

function parsed(element: string): unknown {
  try {
    return JSON.parse(element.slice(2));
  } catch {
    return element.slice(2);
  }
}

/** The total order structured-merge-diff sorts path elements in. */
export function compareElements(a: string, b: string): number {
  const ta = TYPE_RANK[a[0] ?? ''] ?? 4;
  const tb = TYPE_RANK[b[0] ?? ''] ?? 4;
  if (ta !== tb) return ta - tb;
  if (ta === 0) return a < b ? -1 : a > b ? 1 : 0;
  if (ta === 3) return Number(a.slice(2)) - Number(b.slice(2));
  if (ta === 2) return compareValues(parsed(a), parsed(b));
  // Keys: lexically by (name, value) pairs, a shorter list first when it is a prefix.
  const ka = Object.entries((parsed(a) ?? {}) as Record<string, unknown>);
  const kb = Object.entries((parsed(b) ?? {}) as Record<string, unknown>);
  for (let i = 0; ; i++) {
    const x = ka[i];
    const y = kb[i];
    if (!x && !y) return 0;
    if (!x) return -1;
    if (!y) return 1;
    if (x[0] !== y[0]) return x[0] < y[0] ? -1 : 1;
    const c = compareValues(x[1], y[1]);
    if (c !== 0) return c;
  }
}

function scalarText(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(v) : String(JSON.stringify(v));
}

/** `.spec`, `[name="web"]`, `[=x]`, `[0]`: how conflict messages print a path element. */
export function printElement(element: string): string {
  switch (element[0]) {
    case 'f': return `.${element.slice(2)}`;
    case 'k': {
      const fields = Object.entries((parsed(element) ?? {}) as Record<string, unknown>);
      return `[${fields.map(([k, v]) => `${k}=${scalarText(v)}`).join(',')}]`;
    }
    case 'v': return `[=${scalarText(parsed(element))}]`;
    case 'i': return `[${element.slice(2)}]`;
    default: return '{{invalid path element}}';
  }
}

/** Whether a `fieldsV1` key is a path element the API server would accept. */
export function isValidElement(element: string): boolean {
  if (element.length < 2 || element[1] !== ':') return false;
  switch (element[0]) {
    case 'f': return true;
    case 'i': return /^\d+$/.test(element.slice(2));
    case 'v':
      try {
        JSON.parse(element.slice(2));
        return true;
      } catch {
        return false;
      }
    case 'k': {
      const v = parsed(element);
      return typeof v === 'object' && v !== null && !Array.isArray(v) && element.slice(2).startsWith('{');
    }
    default: return false;
  }
}
