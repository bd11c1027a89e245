import { builtinOpenApi } from './builtinDefinitions.ts';
import type { Schema } from './schema.ts';

// The built-in definitions as OpenAPI v3 component schemas, the way kube-apiserver's v3 documents
// differ from its v2 one: a $ref with a description beside it is wrapped in allOf, struct fields
// and required scalars carry their zero default, Quantity and IntOrString are oneOf two types.

let converted: Record<string, Schema> | undefined;

export function builtinV3Schemas(): Record<string, Schema> {
  if (converted) return converted;
  const { definitions, v3 } = builtinOpenApi();
  const out: Record<string, Schema> = {};
  for (const [name, def] of Object.entries(definitions)) {
    const schema = v3Schema(def) as Schema;
    const defaults = v3.defaults[name];
    const properties = schema['properties'] as Record<string, Schema> | undefined;
    if (defaults && properties) {
      for (const [field, value] of Object.entries(defaults)) {
        if (properties[field]) properties[field] = { ...properties[field], default: value };
      }
    }
    const oneOf = v3.oneOf[name];
    if (oneOf) {
      delete schema['type'];
      schema['oneOf'] = oneOf.map((type) => ({ type }));
    }
    out[name] = schema;
  }
  converted = out;
  return out;
}

function v3Schema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(v3Schema);
  if (!value || typeof value !== 'object') return value;
  const s = value as Schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === '$ref' && typeof v === 'string') out[k] = v.replace('#/definitions/', '#/components/schemas/');
    else if (k === 'properties') out[k] = Object.fromEntries(Object.entries(v as Schema).map(([n, p]) => [n, v3Schema(p)]));
    else if (k === 'items' || k === 'additionalProperties') out[k] = v3Schema(v);
    else out[k] = v;
  }
  const ref = out['$ref'];
  if (typeof ref === 'string' && Object.keys(out).length > 1) {
    delete out['$ref'];
    return { allOf: [{ $ref: ref }], ...out };
  }
  return out;
}
