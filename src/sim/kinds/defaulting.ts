// The small steps every kind's defaulting is made of. Each fills a field only when it is missing,
// so defaulting an already-defaulted object changes nothing (the store defaults every write).

export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The map at parent[key], created empty when missing (a Go struct field is never absent). */
export function obj(parent: Obj, key: string): Obj {
  const v = parent[key];
  if (isObj(v)) return v;
  const created: Obj = {};
  parent[key] = created;
  return created;
}

/** Fills a field that is missing, null or '' (Go's zero value for a string, which typed clients send). */
export function setDefault(o: Obj, key: string, value: unknown): void {
  if (o[key] === undefined || o[key] === null || o[key] === '') o[key] = value;
}

/** The maps in parent[key] when it is a list (items that are not maps are left alone). */
export function items(parent: Obj, key: string): Obj[] {
  const v = parent[key];
  return Array.isArray(v) ? v.filter(isObj) : [];
}
