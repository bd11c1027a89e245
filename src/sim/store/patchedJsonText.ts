import { numberLiteral } from '../goTypes/numberLiterals.ts';
import type { PatchType } from './types.ts';

// The patched object's JSON text as kube-apiserver quotes it in a 422 on `patch`. Its json-patch
// library (evanphx v4) parses the stored object's JSON lazily: only the objects a patch walks
// through or merges into are decoded, and those print their keys sorted, as Go prints a map; every
// other part keeps the text it came with — the stored object's field order, or the client's
// order for a value the patch put in. A value a merge patch adds is decoded whole (its nulls are
// pruned), so it prints sorted throughout. A custom resource is stored as a map, so all of it
// prints sorted; a built-in object's untouched metadata prints in ObjectMeta's field order.

/** ObjectMeta's fields in the order Go prints them. */
const OBJECT_META_ORDER = [
  'name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp',
  'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers', 'managedFields',
];

function inObjectMetaOrder(keys: string[]): string[] {
  const rank = (k: string): number => {
    const i = OBJECT_META_ORDER.indexOf(k);
    return i < 0 ? OBJECT_META_ORDER.length : i;
  };
  return [...keys].sort((a, b) => rank(a) - rank(b));
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Where keys print sorted: objects decoded on their own (`parsed`), and whole subtrees (`whole`). */
interface Decoded {
  parsed: Set<string>;
  whole: Set<string>;
}

const child = (path: string, key: string | number): string => `${path}/${String(key)}`;

function mergeDecoded(current: unknown, patch: Record<string, unknown>, path: string, out: Decoded): void {
  out.parsed.add(path);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) continue;
    const cur = isRecord(current) ? current[k] : undefined;
    const at = child(path, k);
    if (isRecord(cur) && isRecord(v)) mergeDecoded(cur, v, at, out);
    else if (!isRecord(cur)) out.whole.add(at);
    // An object replaced by a non-object keeps the patch's own text.
  }
}

/** The JSON pointer's tokens, unescaped. */
const tokensOf = (pointer: string): string[] => pointer.split('/').slice(1).map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'));

function jsonPatchDecoded(ops: unknown, out: Decoded): void {
  out.parsed.add('');
  if (!Array.isArray(ops)) return;
  for (const op of ops) {
    if (!isRecord(op)) continue;
    for (const pointer of [op.path, op.from]) {
      if (typeof pointer !== 'string') continue;
      const tokens = tokensOf(pointer);
      let at = '';
      for (const t of tokens.slice(0, -1)) {
        at = child(at, t);
        out.parsed.add(at);
      }
      // `test` compares by decoding the value it finds.
      if (op.op === 'test' && pointer === op.path) out.whole.add(tokens.reduce(child, ''));
    }
  }
}

const goString = (s: string): string => JSON.stringify(s).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);

/** The patched object as kube-apiserver prints it, numbers as the patch wrote them. */
export function patchedJsonText(result: unknown, current: unknown, type: PatchType, patch: unknown, customResource = false): string {
  const decoded: Decoded = { parsed: new Set(), whole: new Set() };
  if (customResource) decoded.whole.add('');
  else if (type === 'merge' && isRecord(patch)) mergeDecoded(current, patch, '', decoded);
  else if (type === 'json') jsonPatchDecoded(patch, decoded);
  else decoded.whole.add('');
  const text = (value: unknown, path: string, whole: boolean, holder?: object, key?: string | number): string => {
    const literal = holder !== undefined && key !== undefined ? numberLiteral(holder, key) : undefined;
    if (literal !== undefined && typeof value === 'number') return literal;
    const inWhole = whole || decoded.whole.has(path);
    if (Array.isArray(value)) return `[${value.map((v, i) => text(v, child(path, i), inWhole, value, i)).join(',')}]`;
    if (isRecord(value)) {
      const keys = inWhole || decoded.parsed.has(path) ? Object.keys(value).sort()
        : path === '/metadata' ? inObjectMetaOrder(Object.keys(value)) : Object.keys(value);
      return `{${keys.map((k) => `${goString(k)}:${text(value[k], child(path, k), inWhole, value, k)}`).join(',')}}`;
    }
    return value === undefined ? 'null' : typeof value === 'string' ? goString(value) : JSON.stringify(value);
  };
  return text(result, '', false);
}
