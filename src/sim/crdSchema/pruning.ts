import { childPath, isObject, type JsonSchema } from './jsonSchema.ts';

// Pruning as the API server does it for custom resources: every field the structural schema does
// not specify is dropped, unless x-kubernetes-preserve-unknown-fields keeps it; apiVersion, kind
// and metadata at the root (and in x-kubernetes-embedded-resource objects) always stay.

const TYPE_META = new Set(['apiVersion', 'kind', 'metadata']);

/** Drops unknown fields of `value` in place; answers their paths (`spec.foo`, `spec.list[0].bar`). */
export function prune(value: Record<string, unknown>, schema: JsonSchema): string[] {
  const pruned: string[] = [];
  pruneObject(value, schema, '', true, pruned);
  return pruned;
}

function pruneValue(value: unknown, schema: JsonSchema | undefined, path: string, pruned: string[]): void {
  if (!schema || schema['x-kubernetes-int-or-string']) return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => pruneValue(item, schema.items, childPath(path, i), pruned));
  } else if (isObject(value)) {
    pruneObject(value, schema, path, !!schema['x-kubernetes-embedded-resource'], pruned);
  }
}

function pruneObject(value: Record<string, unknown>, schema: JsonSchema, path: string, keepTypeMeta: boolean, pruned: string[]): void {
  const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
  const additional = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  for (const key of Object.keys(value)) {
    if (keepTypeMeta && TYPE_META.has(key)) continue;
    const declared = schema.properties?.[key];
    if (declared) pruneValue(value[key], declared, childPath(path, key), pruned);
    else if (additional) pruneValue(value[key], additional, childPath(path, key), pruned);
    else if (!preserve && schema.additionalProperties !== true) {
      delete value[key];
      pruned.push(childPath(path, key));
    }
  }
}
