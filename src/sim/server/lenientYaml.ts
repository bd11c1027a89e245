import { LineCounter, isAlias, isMap, isScalar, isSeq, parseDocument, type Alias, type Document, type Node } from 'yaml';
import { YamlAliasBudget } from './yamlAliasBudget.ts';

// A YAML body read as yaml.v2 (under sigs.k8s.io/yaml) reads it for kube-apiserver: map entries
// set in the order they are written, a key named twice keeping its last value, and a merge key
// (`<<: *anchor`) setting the anchored map's entries where it stands — so an entry written before
// the merge key is overwritten by it, one written after overwrites it (YAML 1.1's rule that
// explicit keys win is not what yaml.v2 does). Under fieldValidation Strict or Warn the API server
// reads the body again strictly, and passes on yaml.v2's complaint about every key set twice
// (merged ones too): `line 9: key "foo" already set in map`, the line of the repeated entry's value.

/** The YAML text as a value (a repeated key's last value kept), and yaml.v2's complaint about each repeated key. */
export function parseYamlKeepingLast(text: string): { value: unknown; repeatedKeys: string[] } {
  const lineCounter = new LineCounter();
  // Merge keys are resolved here, in yaml.v2's order, not by the parser.
  const doc = parseDocument(text, { uniqueKeys: false, prettyErrors: false, lineCounter, merge: false });
  if (doc.errors.length) throw doc.errors[0]!;
  const repeatedKeys: string[] = [];
  const lineOf = (node: Node | null | undefined): number => lineCounter.linePos(node?.range?.[0] ?? 0).line;
  const value = new YamlV2Reader(doc, (node, key) => repeatedKeys.push(`line ${lineOf(node)}: key ${goQuoted(key)} already set in map`)).read(doc.contents);
  return { value, repeatedKeys };
}

const isMergeKey = (key: unknown): boolean => isScalar(key) && key.type === 'PLAIN' && key.value === '<<';

class YamlV2Reader {
  private readonly doc: Document;
  private readonly repeated: (valueNode: Node | null, key: unknown) => void;
  private readonly aliases = new YamlAliasBudget();

  constructor(doc: Document, repeated: (valueNode: Node | null, key: unknown) => void) {
    this.doc = doc;
    this.repeated = repeated;
  }

  read(node: unknown): unknown {
    this.aliases.read();
    if (isAlias(node)) return this.throughAlias(node, (anchored) => this.read(anchored));
    if (isSeq(node)) return node.items.map((item) => this.read(item));
    if (isMap(node)) {
      const out: Record<string, unknown> = {};
      this.setEntries(node, out);
      return out;
    }
    if (isScalar(node)) return node.toJS(this.doc);
    return node === null || node === undefined ? null : (node as Node).toJS(this.doc);
  }

  /** Sets a map's entries into `out` in the order written, merge keys expanded where they stand. */
  private setEntries(map: Node, out: Record<string, unknown>): void {
    if (!isMap(map)) return;
    for (const pair of map.items) {
      if (isMergeKey(pair.key)) {
        this.merge(pair.value as Node | null, out);
        continue;
      }
      const keyValue = isScalar(pair.key) ? pair.key.value : (pair.key as Node | null)?.toJSON();
      const key = String(keyValue ?? null);
      if (Object.hasOwn(out, key)) this.repeated(pair.value as Node | null, keyValue);
      // A `__proto__` key is data, as in JSON.parse, not the object's prototype.
      Object.defineProperty(out, key, { value: this.read(pair.value), enumerable: true, writable: true, configurable: true });
    }
  }

  /** A merge key's value: a map (or an alias of one), or a list of them, the last one first so that earlier ones win. */
  private merge(value: Node | null, out: Record<string, unknown>): void {
    if (isAlias(value)) return this.throughAlias(value, (anchored) => this.merge(anchored, out));
    if (isSeq(value)) {
      for (const item of [...value.items].reverse()) {
        if (isAlias(item)) this.throughAlias(item, (anchored) => this.setEntries(anchored, out));
        else this.setEntries(item as Node, out);
      }
    } else if (value) {
      this.setEntries(value, out);
    }
  }

  /** What an alias names, read under yaml.v2's alias budget. */
  private throughAlias<T>(alias: Alias, expand: (anchored: Node) => T): T {
    const anchored = alias.resolve(this.doc) as Node | undefined;
    if (!anchored) throw new Error(`unknown anchor '${alias.source}' referenced`);
    return this.aliases.throughAlias(alias.source, anchored, () => expand(anchored));
  }
}

/** Go's %#v of a key: strings quoted, numbers and booleans as they are. */
function goQuoted(key: unknown): string {
  return typeof key === 'string' ? JSON.stringify(key) : String(key);
}
