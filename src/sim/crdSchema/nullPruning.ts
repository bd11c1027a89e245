import { isObject, type JsonSchema } from './jsonSchema.ts';

// A null the schema does not allow (no `nullable: true`) and has no default for is dropped, as the
// API server drops it while decoding a custom resource, before defaulting: kubebuilder's sample
// `spec:` (a key with only a comment under it, YAML's null) is a Memcached with no spec, not an
// invalid one. A null with a default is left for defaulting to replace.

export function pruneDisallowedNulls(value: unknown, schema: JsonSchema | undefined): void {
  if (Array.isArray(value)) {
    for (const item of value) pruneDisallowedNulls(item, schema?.items);
    return;
  }
  if (!isObject(value)) return;
  const additional = typeof schema?.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  for (const [key, child] of Object.entries(value)) {
    const field = schema?.properties?.[key] ?? additional;
    if (child === null && field !== undefined && !field.nullable && field.default === undefined) delete value[key];
    else pruneDisallowedNulls(child, field);
  }
}
