import { cloneJson } from '../../shared/cloneJson.ts';
import type { FieldSet } from './fieldSet.ts';
import { indexItems, itemElement } from './fieldWalk.ts';
import type { Shape } from './shape.ts';

// Merging an applied configuration into the live object, and removing what an applier stopped
// applying, as structured-merge-diff does: maps merge key by key, associative lists item by item
// (by their keys), sets by value; atomic lists and maps, and scalars, are replaced.

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The live object with the configuration merged in (neither is modified). */
export function mergeApplied(live: unknown, config: unknown, shape: Shape): unknown {
  if (config === undefined) return live;
  if (live === undefined || live === null || config === null) return cloneJson(config);
  if (isObject(config) && isObject(live) && !shape.atomicMap()) {
    const out: Obj = { ...live };
    for (const [k, v] of Object.entries(config)) {
      // A null in an applied configuration unsets the field.
      if (v === null) delete out[k];
      else out[k] = mergeApplied(live[k], v, shape.field(k));
    }
    return out;
  }
  if (Array.isArray(config) && Array.isArray(live)) {
    const list = shape.list();
    if (list.type !== 'atomic') return mergeList(live, config, shape);
  }
  return cloneJson(config);
}

/** Shared items take the configuration's order; items only the live list has keep their place. */
function mergeList(live: unknown[], config: unknown[], shape: Shape): unknown[] {
  const list = shape.list();
  const liveItems = indexItems(live, list);
  const configElements = config.map((item, i) => itemElement(item, list, i));
  const configItems = new Map<string, unknown>();
  configElements.forEach((e, i) => { if (!configItems.has(e)) configItems.set(e, config[i]); });
  const out: unknown[] = [];
  const emitted = new Set<string>();
  let next = 0;
  const emitConfigUpTo = (target: string | undefined): void => {
    while (next < configElements.length) {
      const e = configElements[next++] ?? '';
      if (emitted.has(e)) continue;
      emitted.add(e);
      const item = list.type === 'set' ? configItems.get(e) : mergeApplied(liveItems.get(e), configItems.get(e), shape.items());
      out.push(item);
      if (e === target) return;
    }
  };
  for (const [e, item] of liveItems) {
    if (configItems.has(e)) emitConfigUpTo(e);
    else out.push(cloneJson(item));
  }
  emitConfigUpTo(undefined);
  return out;
}

/**
 * Removes from `obj` (in place) the fields in `stale` — those an applier applied before and no
 * longer does — unless someone still owns them or something beneath them (`owned`).
 */
export function removeStale(obj: unknown, stale: FieldSet, owned: FieldSet | undefined, shape: Shape): void {
  if (isObject(obj)) {
    for (const [e, node] of stale.children) {
      if (!e.startsWith('f:')) continue;
      const name = e.slice(2);
      if (!(name in obj)) continue;
      const keep = owned?.children.get(e);
      if (node.member && (!keep || keep.isEmpty())) delete obj[name];
      else removeStale(obj[name], node, keep, shape.field(name));
    }
    return;
  }
  if (!Array.isArray(obj)) return;
  const list = shape.list();
  if (list.type === 'atomic') return;
  for (let i = obj.length - 1; i >= 0; i--) {
    let e: string;
    try {
      e = itemElement(obj[i], list, i);
    } catch {
      continue;
    }
    const node = stale.children.get(e);
    if (!node) continue;
    const keep = owned?.children.get(e);
    if (node.member && (!keep || keep.isEmpty())) obj.splice(i, 1);
    else removeStale(obj[i], node, keep, shape.items());
  }
}
