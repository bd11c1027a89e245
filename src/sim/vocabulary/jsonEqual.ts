// Equality of JSON values the way the API server compares objects (apiequality.Semantic.DeepEqual):
// map key order does not matter, list order does. A client that re-sends an object with its keys
// in another order has changed nothing. A key holding `undefined` is absent, as in its JSON.

export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let defined = 0;
  for (const k in x) {
    if (!Object.hasOwn(x, k) || x[k] === undefined) continue;
    if (!jsonEqual(x[k], Object.hasOwn(y, k) ? y[k] : undefined)) return false;
    defined++;
  }
  for (const k in y) if (Object.hasOwn(y, k) && y[k] !== undefined) defined--;
  return defined === 0;
}
