import { isObject, type JsonSchema } from '../jsonSchema.ts';

// A custom resource's JSON as CEL sees it through the schema: integer fields are CEL ints
// (bigint), number fields doubles, date-time/duration/byte strings timestamps, durations and
// bytes, objects with properties or additionalProperties maps. Only what the schema declares is
// visible; at the root and in embedded resources also apiVersion, kind and metadata's name and
// generateName.

const TYPE_META_SCHEMA: Record<string, JsonSchema> = {
  apiVersion: { type: 'string' },
  kind: { type: 'string' },
  metadata: { type: 'object', properties: { name: { type: 'string' }, generateName: { type: 'string' } } },
};

/** The schema a rule's `self` sees at a node: with type meta at the root and in embedded resources. */
export function withTypeMeta(schema: JsonSchema): JsonSchema {
  return { ...schema, properties: { ...TYPE_META_SCHEMA, ...schema.properties } };
}

export type DurationParser = (text: string) => unknown;

export function toCelValue(value: unknown, schema: JsonSchema | undefined, duration: DurationParser): unknown {
  if (value === null || value === undefined) return null;
  if (!schema) return plain(value);
  if (schema['x-kubernetes-embedded-resource'] && isObject(value)) return toCelObject(value, withTypeMeta(schema), duration);
  if (typeof value === 'number') return schema.type === 'number' || !Number.isInteger(value) ? value : BigInt(value);
  if (typeof value === 'string') return stringValue(value, schema, duration);
  if (Array.isArray(value)) return value.map((item) => toCelValue(item, schema.items, duration));
  if (isObject(value)) return toCelObject(value, schema, duration);
  return value;
}

function toCelObject(value: Record<string, unknown>, schema: JsonSchema, duration: DurationParser): Record<string, unknown> {
  const additional = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  const out: Record<string, unknown> = {};
  const declaresNothing = !schema.properties && !additional;
  for (const [key, child] of Object.entries(value)) {
    const childSchema = schema.properties?.[key] ?? additional;
    if (childSchema) out[key] = toCelValue(child, childSchema, duration);
    // An object that declares nothing (x-kubernetes-preserve-unknown-fields alone) is seen whole.
    else if (declaresNothing || schema.additionalProperties === true) out[key] = plain(child);
  }
  return out;
}

function stringValue(value: string, schema: JsonSchema, duration: DurationParser): unknown {
  try {
    if (schema.format === 'date-time' || schema.format === 'date') {
      const date = new Date(value);
      return Number.isNaN(date.getTime()) ? value : date;
    }
    if (schema.format === 'duration') return duration(value);
    if (schema.format === 'byte') return Uint8Array.from(Buffer.from(value, 'base64'));
  } catch {
    // A value its format does not parse stays a string; schema validation reports it.
  }
  return value;
}

/** Unknown JSON as CEL's dyn: whole numbers are ints. */
function plain(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(plain);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}
