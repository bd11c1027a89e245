import { jsonEqual } from '../vocabulary/jsonEqual.ts';
import { FieldSet } from './fieldSet.ts';
import { fieldElement, indexElement, keyElement, valueElement } from './pathElement.ts';
import type { ListShape, Shape } from './shape.ts';

// The two walks field management is made of: the set of fields an object (an applied
// configuration) sets, and what changed between two versions of an object (added, modified,
// removed), both as structured-merge-diff computes them. Fields no manager owns — apiVersion, kind,
// and the metadata the server sets (name, uid, resourceVersion, managedFields, …) — are left out.

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const UNOWNED_ROOT = new Set(['apiVersion', 'kind']);
const UNOWNED_METADATA = new Set(['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion']);

function skipped(path: readonly string[], key: string): boolean {
  if (path.length === 0) return UNOWNED_ROOT.has(key);
  return path.length === 1 && path[0] === 'f:metadata' && UNOWNED_METADATA.has(key);
}

export class MissingKeyError extends Error {}

/** A keyed list (or a set) of an applied configuration naming one key (or value) twice, in structured-merge-diff's words. */
export class DuplicateKeyError extends Error {}

/** A path element as structured-merge-diff prints it in errors: `.spec`, `[name="c"]`, `[0]`. */
export function readableElement(element: string): string {
  if (element.startsWith('f:')) return `.${element.slice(2)}`;
  if (element.startsWith('k:')) {
    const keys = JSON.parse(element.slice(2)) as Record<string, unknown>;
    return `[${Object.entries(keys).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(',')}]`;
  }
  if (element.startsWith('v:')) return `[=${element.slice(2)}]`;
  return `[${element.slice(2)}]`;
}

/** The path element of a list item: `k:{…}` by its keys, `v:…` for a set, `i:n` when atomic. */
export function itemElement(item: unknown, list: ListShape, index: number): string {
  if (list.type === 'set') return valueElement(item);
  if (list.type === 'map' && isObject(item)) {
    const fields: [string, unknown][] = [];
    for (const k of list.keys) {
      const v = item[k] ?? list.keyDefaults?.[k];
      if (v === undefined) throw new MissingKeyError(`associative list with keys has an element that omits key field ${JSON.stringify(k)} (and doesn't have default value)`);
      fields.push([k, v]);
    }
    return keyElement(fields);
  }
  return indexElement(index);
}

/** The items of a keyed or set list by path element (the first of duplicates wins). */
export function indexItems(list: readonly unknown[], shape: ListShape): Map<string, unknown> {
  const out = new Map<string, unknown>();
  list.forEach((item, i) => {
    let e: string;
    try {
      e = itemElement(item, shape, i);
    } catch (err) {
      if (!(err instanceof MissingKeyError)) throw err;
      e = indexElement(i);
    }
    if (!out.has(e)) out.set(e, item);
  });
  return out;
}

function isAtomic(value: unknown, shape: Shape): boolean {
  if (Array.isArray(value)) return shape.list().type === 'atomic';
  return isObject(value) ? shape.atomicMap() : true;
}

function isLeaf(value: unknown, shape: Shape): boolean {
  if (Array.isArray(value)) return shape.list().type === 'atomic' || value.length === 0;
  if (isObject(value)) return shape.atomicMap() || Object.keys(value).length === 0;
  return true;
}

/** The fields `obj` sets: what an applier owns for it. Throws MissingKeyError for a keyed item without its key. */
export function fieldSetOf(obj: unknown, shape: Shape): FieldSet {
  const set = new FieldSet();
  const path: string[] = [];
  const walk = (value: unknown, s: Shape, node: FieldSet): void => {
    if (Array.isArray(value)) {
      const list = s.list();
      if (list.type === 'atomic') {
        node.member = true;
        return;
      }
      const seen = new Set<string>();
      value.forEach((item, i) => {
        const element = itemElement(item, list, i);
        if (seen.has(element)) {
          throw new DuplicateKeyError(`${path.map(readableElement).join('')}: duplicate entries for key ${readableElement(element)}`);
        }
        seen.add(element);
        const c = node.child(element);
        c.member = true;
        if (list.type === 'map' && isObject(item)) {
          path.push(element);
          walkMap(item, s.items(), c);
          path.pop();
        }
      });
      return;
    }
    if (isObject(value)) {
      if (s.atomicMap() || Object.keys(value).length === 0) node.member = true;
      else walkMap(value, s, node);
      return;
    }
    node.member = true;
  };
  const walkMap = (value: Obj, s: Shape, node: FieldSet): void => {
    for (const [k, v] of Object.entries(value)) {
      if (skipped(path, k)) continue;
      const e = fieldElement(k);
      path.push(e);
      walk(v, s.field(k), node.child(e));
      path.pop();
    }
  };
  if (isObject(obj)) walkMap(obj, shape, set);
  return withoutEmptyNodes(set);
}

function withoutEmptyNodes(set: FieldSet): FieldSet {
  for (const [e, c] of set.children) {
    withoutEmptyNodes(c);
    if (c.isEmpty()) set.children.delete(e);
  }
  return set;
}

export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

/** What changed from `before` to `after` (undefined: an object that does not exist yet). */
export function compare(before: unknown, after: unknown, shape: Shape): Comparison {
  const result: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  const path: string[] = [];
  const nodeAt = (set: FieldSet): FieldSet => {
    let node = set;
    for (const e of path) node = node.child(e);
    return node;
  };
  /** A whole subtree added (or removed): every field, and `.` for maps and items that came with it. */
  const fill = (node: FieldSet, v: unknown, s: Shape, inZeroValue: boolean): void => {
    if (isLeaf(v, s)) {
      node.member = true;
      return;
    }
    if (Array.isArray(v)) {
      const list = s.list();
      const items = s.items();
      for (const [e, item] of indexItems(v, list)) {
        path.push(e);
        if (list.type === 'set') node.child(e).member = true;
        else fill(node.child(e), item, items, false);
        path.pop();
      }
    } else {
      for (const [k, x] of Object.entries(v as Obj)) {
        if (skipped(path, k)) continue;
        path.push(fieldElement(k));
        const fs = s.field(k);
        fill(node.child(fieldElement(k)), x, fs, fs.inZeroValue() || (path.length === 1 && k === 'metadata'));
        path.pop();
      }
    }
    if (!inZeroValue && path.length > 0) node.member = true;
  };
  const walk = (l: unknown, r: unknown, s: Shape, inZeroValue: boolean): void => {
    if (l === undefined) {
      fill(nodeAt(result.added), r, s, inZeroValue);
      return;
    }
    if (r === undefined) {
      fill(nodeAt(result.removed), l, s, inZeroValue);
      return;
    }
    const sameKind = Array.isArray(l) === Array.isArray(r) && isObject(l) === isObject(r);
    // A scalar, an atomic list or map, or two empty ones: compared as one value.
    if (!sameKind || (isLeaf(l, s) && isLeaf(r, s)) || isAtomic(l, s)) {
      if (!jsonEqual(l, r)) result.modified.insert(path);
      return;
    }
    if (Array.isArray(l)) walkList(l, r as unknown[], s);
    else walkMap(l as Obj, r as Obj, s);
  };
  const walkMap = (l: Obj, r: Obj, s: Shape): void => {
    const visit = (k: string, lv: unknown, rv: unknown): void => {
      // Unchanged subtrees are skipped whole: most writes change little of an object.
      if (lv !== undefined && rv !== undefined && jsonEqual(lv, rv)) return;
      if (skipped(path, k)) return;
      path.push(fieldElement(k));
      const fs = s.field(k);
      walk(lv, rv, fs, fs.inZeroValue() || (path.length === 1 && k === 'metadata'));
      path.pop();
    };
    for (const k of Object.keys(l)) visit(k, l[k], r[k]);
    for (const k of Object.keys(r)) if (!(k in l)) visit(k, undefined, r[k]);
  };
  const walkList = (l: unknown[], r: unknown[], s: Shape): void => {
    const list = s.list();
    const li = indexItems(l, list);
    const ri = indexItems(r, list);
    const items = s.items();
    const visit = (e: string, lv: unknown, rv: unknown): void => {
      if (lv !== undefined && rv !== undefined && jsonEqual(lv, rv)) return;
      path.push(e);
      if (list.type === 'set') {
        if (lv === undefined) result.added.insert(path);
        else if (rv === undefined) result.removed.insert(path);
      } else {
        walk(lv, rv, items, false);
      }
      path.pop();
    };
    for (const [e, lv] of li) visit(e, lv, ri.get(e));
    for (const [e, rv] of ri) if (!li.has(e)) visit(e, undefined, rv);
  };
  if (before === undefined) fill(result.added, after, shape, true);
  else if (after === undefined) fill(result.removed, before, shape, true);
  else walk(before, after, shape, true);
  withoutEmptyNodes(result.added);
  withoutEmptyNodes(result.removed);
  return result;
}
