import { isObject, type JsonSchema } from './jsonSchema.ts';

// Defaulting from a structural schema, as the API server applies it to custom resources: a field
// that is missing (or null without `nullable: true`) gets a copy of its schema's default, top
// down, so defaults inside a just-defaulted object apply too.

export function applySchemaDefaults(value: unknown, schema: JsonSchema | undefined): void {
  if (!schema) return;
  if (Array.isArray(value)) {
    for (const item of value) applySchemaDefaults(item, schema.items);
    return;
  }
  if (!isObject(value)) return;
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    if (property.default === undefined) continue;
    if (!(key in value) || (value[key] === null && !property.nullable)) value[key] = structuredClone(property.default);
  }
  const additional = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  for (const [key, child] of Object.entries(value)) {
    applySchemaDefaults(child, schema.properties?.[key] ?? additional);
  }
}
