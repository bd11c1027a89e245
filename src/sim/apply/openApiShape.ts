import { builtinDefinitionName, builtinOpenApi } from '../openapi/builtinDefinitions.ts';
import type { Schema } from '../openapi/schema.ts';
import { BuiltinShape, type ListShape, type Shape } from './shape.ts';

// Shapes of a built-in kind's fields from its OpenAPI definition, as kube-apiserver builds its
// server-side apply schema: `x-kubernetes-list-type` / `-list-map-keys`, else a `merge` patch
// strategy (by `x-kubernetes-patch-merge-key`, or a set of scalars), else atomic; maps marked
// `x-kubernetes-map-type: atomic` (label selectors) are replaced whole. Which fields exist in the
// Go zero value, which OpenAPI does not say, still comes from BuiltinShape.

const ATOMIC: ListShape = { type: 'atomic', keys: [] };
const SET: ListShape = { type: 'set', keys: [] };
const REF = '#/definitions/';

function resolve(schema: Schema | undefined): Schema | undefined {
  const ref = schema?.$ref;
  if (typeof ref !== 'string' || !ref.startsWith(REF)) return schema;
  const target = builtinOpenApi().definitions[ref.slice(REF.length)];
  // A property's own extensions (list type, map type) sit beside its $ref.
  return target ? { ...target, ...schema } : schema;
}

export class OpenApiShape implements Shape {
  private readonly schema: Schema | undefined;
  private readonly zero: Shape;
  private readonly fields = new Map<string, OpenApiShape>();
  private listShape: ListShape | undefined;
  private itemShape: OpenApiShape | undefined;

  constructor(schema: Schema | undefined, zero: Shape) {
    this.schema = resolve(schema);
    this.zero = zero;
  }

  list(): ListShape {
    return (this.listShape ??= this.computeList());
  }

  private computeList(): ListShape {
    const s = this.schema;
    const type = s?.['x-kubernetes-list-type'];
    const keys = s?.['x-kubernetes-list-map-keys'];
    if (type === 'map' && Array.isArray(keys) && keys.every((k) => typeof k === 'string')) return { type: 'map', keys, keyDefaults: this.keyDefaults(keys) };
    if (type === 'set') return SET;
    if (type === 'atomic') return ATOMIC;
    const strategy = s?.['x-kubernetes-patch-strategy'];
    if (typeof strategy === 'string' && strategy.split(',').includes('merge')) {
      const key = s?.['x-kubernetes-patch-merge-key'];
      return typeof key === 'string' ? { type: 'map', keys: [key], keyDefaults: this.keyDefaults([key]) } : SET;
    }
    return ATOMIC;
  }

  private keyDefaults(keys: readonly string[]): Record<string, unknown> | undefined {
    const props = resolve(this.schema?.items as Schema | undefined)?.properties as Record<string, Schema> | undefined;
    let out: Record<string, unknown> | undefined;
    for (const k of keys) {
      const d = props?.[k]?.default;
      if (d !== undefined) (out ??= {})[k] = d;
    }
    return out;
  }

  atomicMap(): boolean {
    return this.schema?.['x-kubernetes-map-type'] === 'atomic';
  }

  inZeroValue(): boolean {
    return this.zero.inZeroValue();
  }

  field(name: string): Shape {
    let f = this.fields.get(name);
    if (!f) {
      const props = this.schema?.properties as Record<string, Schema> | undefined;
      const additional = this.schema?.additionalProperties;
      const child = props?.[name] ?? (typeof additional === 'object' && additional !== null ? additional as Schema : undefined);
      f = new OpenApiShape(child, this.zero.field(name));
      if (this.fields.size < 256) this.fields.set(name, f);
    }
    return f;
  }

  items(): Shape {
    return (this.itemShape ??= new OpenApiShape(this.schema?.items as Schema | undefined, this.zero.items()));
  }
}

const roots = new Map<string, Shape>();

/** The shape of a built-in kind from its OpenAPI definition, or the merge-key table when it has none. */
export function builtinShape(group: string, version: string, kind: string, resource: string): Shape {
  const id = `${group}/${version}/${kind}`;
  let shape = roots.get(id);
  if (!shape) {
    const name = builtinDefinitionName(group, version, kind);
    const definition = name ? builtinOpenApi().definitions[name] : undefined;
    shape = definition ? new OpenApiShape(definition, BuiltinShape.of(resource)) : BuiltinShape.of(resource);
    roots.set(id, shape);
  }
  return shape;
}
