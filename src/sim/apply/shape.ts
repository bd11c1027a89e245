import { mergeKeyFor } from '../patch/strategicMergePatch.ts';

// What server-side apply needs to know about a field's type: how a list is merged and owned
// (`x-kubernetes-list-type`: an associative `map` by its keys, a `set` of scalars, or `atomic`),
// whether a map is atomic, and whether a struct field exists in the Go type's zero value (so it is
// never "added" by a create, and managedFields show no `.` for it). Built-in kinds take this from
// the merge keys the strategic merge patch knows; custom resources from their CRD's schema.

export interface ListShape {
  type: 'map' | 'set' | 'atomic';
  /** For `map` lists: the key fields, and defaults for keys a client may leave out. */
  keys: readonly string[];
  keyDefaults?: Readonly<Record<string, unknown>>;
}

export interface Shape {
  list(): ListShape;
  /** The map is replaced as a whole (`x-kubernetes-map-type: atomic`, `+structType=atomic`). */
  atomicMap(): boolean;
  /** A struct field present in the Go zero value of its parent. */
  inZeroValue(): boolean;
  field(name: string): Shape;
  items(): Shape;
}

const ATOMIC: ListShape = { type: 'atomic', keys: [] };
const SET: ListShape = { type: 'set', keys: [] };
const PROTOCOL_DEFAULT = { protocol: 'TCP' };

/** Fields of the built-in types present in their parent's Go zero value: non-pointer structs, and lists without omitempty. */
const IN_ZERO_VALUE = new Set([
  'spec', 'status', 'template', 'strategy', 'updateStrategy', 'resources', 'jobTemplate', 'loadBalancer', 'containers', 'names',
  // flowcontrol: a FlowSchema's priority level reference is a value, not a pointer (a limited
  // level's limitResponse is one too, but under the `limited` pointer: kube-apiserver gives it `.`).
  'priorityLevelConfiguration',
]);

/** Label selectors are atomic structs; a Service's or ReplicationController's `selector` is a plain map. */
const SELECTOR_FIELDS = new Set(['selector', 'podSelector', 'namespaceSelector', 'labelSelector', 'nodeSelectorTerms']);

/** Shapes of a built-in kind's fields, by the chain of field names from the root. */
export class BuiltinShape implements Shape {
  private readonly resource: string;
  private readonly path: readonly string[];
  // Every write walks the same fields: children and answers are computed once per resource.
  private readonly fields = new Map<string, BuiltinShape>();
  private listShape: ListShape | undefined;
  private atomic: boolean | undefined;

  private static readonly roots = new Map<string, BuiltinShape>();

  /** The (shared, cached) shape of a built-in resource's objects. */
  static of(resource: string): BuiltinShape {
    let root = BuiltinShape.roots.get(resource);
    if (!root) {
      root = new BuiltinShape(resource);
      BuiltinShape.roots.set(resource, root);
    }
    return root;
  }

  constructor(resource: string, path: readonly string[] = []) {
    this.resource = resource;
    this.path = path;
  }

  private get name(): string {
    return this.path[this.path.length - 1] ?? '';
  }

  list(): ListShape {
    return (this.listShape ??= this.computeList());
  }

  private computeList(): ListShape {
    const parent = this.path.slice(0, -1);
    const name = this.name;
    if (name === 'finalizers' && parent.length === 1 && parent[0] === 'metadata') return SET;
    if (name === 'ports') {
      const inContainer = parent.some((p) => p === 'containers' || p === 'initContainers' || p === 'ephemeralContainers');
      if (inContainer) return { type: 'map', keys: ['containerPort', 'protocol'], keyDefaults: PROTOCOL_DEFAULT };
      if (this.resource === 'services') return { type: 'map', keys: ['port', 'protocol'], keyDefaults: PROTOCOL_DEFAULT };
    }
    const key = mergeKeyFor(name, parent);
    return key ? { type: 'map', keys: [key] } : ATOMIC;
  }

  atomicMap(): boolean {
    return (this.atomic ??= this.computeAtomicMap());
  }

  private computeAtomicMap(): boolean {
    if (!SELECTOR_FIELDS.has(this.name)) return false;
    const isPlainMap = this.name === 'selector' && (this.resource === 'services' || this.resource === 'replicationcontrollers');
    return !isPlainMap;
  }

  inZeroValue(): boolean {
    return this.path.length > 0 && (IN_ZERO_VALUE.has(this.name) || (this.name === 'metadata' && this.path.length > 1));
  }

  field(name: string): Shape {
    let f = this.fields.get(name);
    if (!f) {
      f = new BuiltinShape(this.resource, [...this.path, name]);
      // Bounded: map keys (labels, data…) are fields too; past this, shapes are made afresh.
      if (this.fields.size < 256) this.fields.set(name, f);
    }
    return f;
  }

  items(): Shape {
    return this;
  }
}

type Schema = Record<string, unknown>;

/** Shapes from a CRD's structural schema; what it does not describe is a granular map or an atomic list. */
export class SchemaShape implements Shape {
  private readonly schema: Schema | undefined;
  private readonly isRoot: boolean;

  constructor(schema: Schema | undefined, isRoot = false) {
    this.schema = schema;
    this.isRoot = isRoot;
  }

  list(): ListShape {
    const type = this.schema?.['x-kubernetes-list-type'];
    if (type === 'set') return SET;
    if (type === 'map') {
      const keys = this.schema?.['x-kubernetes-list-map-keys'];
      if (Array.isArray(keys) && keys.every((k) => typeof k === 'string')) return { type: 'map', keys, keyDefaults: keyDefaults(this.schema, keys) };
    }
    return ATOMIC;
  }

  atomicMap(): boolean {
    return this.schema?.['x-kubernetes-map-type'] === 'atomic';
  }

  inZeroValue(): boolean {
    return false;
  }

  field(name: string): Shape {
    // Custom resources' metadata is ObjectMeta: finalizers as a set, ownerReferences by uid.
    if (this.isRoot && name === 'metadata') return BuiltinShape.of('').field('metadata');
    const props = this.schema?.properties as Record<string, Schema> | undefined;
    const prop = props?.[name];
    if (prop) return new SchemaShape(prop);
    const additional = this.schema?.additionalProperties;
    return new SchemaShape(typeof additional === 'object' && additional !== null ? additional as Schema : undefined);
  }

  items(): Shape {
    const items = this.schema?.items;
    return new SchemaShape(typeof items === 'object' && items !== null && !Array.isArray(items) ? items as Schema : undefined);
  }
}

function keyDefaults(schema: Schema | undefined, keys: readonly string[]): Record<string, unknown> | undefined {
  const props = ((schema?.items as Schema | undefined)?.properties ?? {}) as Record<string, Schema>;
  let out: Record<string, unknown> | undefined;
  for (const k of keys) {
    const d = props[k]?.default;
    if (d !== undefined) (out ??= {})[k] = d;
  }
  return out;
}
