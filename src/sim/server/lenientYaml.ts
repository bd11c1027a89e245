import { LineCounter, isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';

// An apply patch is YAML, read leniently first (a key named twice in a map: the last one counts),
// then, under fieldValidation Strict or Warn, read again strictly by yaml.v2, whose complaints the
// API server passes on: `line 9: key "foo" already set in map`, the line of the repeated entry's value.

/** The YAML text as a value (a repeated key's last value kept), and yaml.v2's complaint about each repeated key. */
export function parseYamlKeepingLast(text: string): { value: unknown; repeatedKeys: string[] } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { uniqueKeys: false, prettyErrors: false, lineCounter, merge: true });
  if (doc.errors.length) throw doc.errors[0]!;
  const repeatedKeys: string[] = [];
  const lineOf = (node: Node | null | undefined, fallback: Node | null | undefined): number => lineCounter.linePos((node ?? fallback)?.range?.[0] ?? 0).line;
  const walk = (node: unknown): void => {
    if (isSeq(node)) {
      for (const item of node.items) walk(item);
    } else if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        const key = pair.key as Node | null;
        const keyValue = isScalar(key) ? key.value : key?.toJSON();
        const id = JSON.stringify(keyValue ?? null);
        if (seen.has(id)) repeatedKeys.push(`line ${lineOf(pair.value as Node | null, key)}: key ${goQuoted(keyValue)} already set in map`);
        seen.add(id);
        walk(pair.value);
      }
    }
  };
  walk(doc.contents);
  return { value: doc.toJS(), repeatedKeys };
}

/** Go's %#v of a key: strings quoted, numbers and booleans as they are. */
function goQuoted(key: unknown): string {
  return typeof key === 'string' ? JSON.stringify(key) : String(key);
}
