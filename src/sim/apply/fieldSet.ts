import { compareElements, isValidElement, printElement } from './pathElement.ts';

// A set of field paths, as a tree of path elements (structured-merge-diff's fieldpath.Set).
// A node is a member of the set when `member` is true — `.` in fieldsV1 when it also has
// children, `{}` when it is a leaf. Operations return new sets and never modify their inputs, so
// sets decoded from stored (frozen) objects can be cached and shared.

export class FieldSet {
  member = false;
  readonly children = new Map<string, FieldSet>();

  child(element: string): FieldSet {
    let c = this.children.get(element);
    if (!c) {
      c = new FieldSet();
      this.children.set(element, c);
    }
    return c;
  }

  insert(path: readonly string[]): void {
    let node: FieldSet = this;
    for (const e of path) node = node.child(e);
    node.member = true;
  }

  has(path: readonly string[]): boolean {
    let node: FieldSet | undefined = this;
    for (const e of path) {
      node = node.children.get(e);
      if (!node) return false;
    }
    return node.member;
  }

  isEmpty(): boolean {
    if (this.member) return false;
    for (const c of this.children.values()) if (!c.isEmpty()) return false;
    return true;
  }

  union(other: FieldSet): FieldSet {
    const out = new FieldSet();
    out.member = this.member || other.member;
    for (const [e, c] of this.children) {
      const o = other.children.get(e);
      out.children.set(e, o ? c.union(o) : c.copy());
    }
    for (const [e, o] of other.children) if (!this.children.has(e)) out.children.set(e, o.copy());
    return out;
  }

  /** Members of this set that are not members of `other` (a node stays while it has any). */
  difference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    out.member = this.member && !other.member;
    for (const [e, c] of this.children) {
      const o = other.children.get(e);
      const d = o ? c.difference(o) : c.copy();
      if (!d.isEmpty()) out.children.set(e, d);
    }
    return out;
  }

  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    out.member = this.member && other.member;
    for (const [e, c] of this.children) {
      const o = other.children.get(e);
      if (!o) continue;
      const i = c.intersection(o);
      if (!i.isEmpty()) out.children.set(e, i);
    }
    return out;
  }

  /** A copy without the given top-level paths (and without nodes left empty). */
  without(paths: readonly (readonly string[])[]): FieldSet {
    const strip = new FieldSet();
    for (const p of paths) strip.insert(p);
    return this.difference(strip);
  }

  copy(): FieldSet {
    const out = new FieldSet();
    out.member = this.member;
    for (const [e, c] of this.children) out.children.set(e, c.copy());
    return out;
  }

  /** Every member path, in the API server's order. */
  paths(prefix: string[] = [], out: string[][] = []): string[][] {
    if (this.member && prefix.length) out.push([...prefix]);
    for (const e of [...this.children.keys()].sort(compareElements)) {
      prefix.push(e);
      this.children.get(e)?.paths(prefix, out);
      prefix.pop();
    }
    return out;
  }

  /** The `fieldsV1` object, keys sorted as the API server writes them. */
  toFieldsV1(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (this.member && this.children.size) out['.'] = {};
    for (const e of [...this.children.keys()].sort(compareElements)) {
      const c = this.children.get(e);
      if (c && !c.isEmpty()) out[e] = c.toFieldsV1();
    }
    return out;
  }

  /** Reads a `fieldsV1` object; throws a readable error for anything else. */
  static fromFieldsV1(value: unknown, isRoot = true): FieldSet {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('expected an object');
    const set = new FieldSet();
    const entries = Object.entries(value as Record<string, unknown>);
    if (!isRoot && entries.length === 0) set.member = true;
    for (const [k, v] of entries) {
      if (k === '.') {
        set.member = true;
        continue;
      }
      if (!isValidElement(k)) throw new Error(`invalid path element ${JSON.stringify(k)}`);
      set.children.set(k, FieldSet.fromFieldsV1(v, false));
    }
    return set;
  }
}

/** `.spec.containers[name="web"].image`: a path as conflict messages print it. */
export function printPath(path: readonly string[]): string {
  return path.map(printElement).join('');
}
