import { isObject, type JsonSchema } from './jsonSchema.ts';

// Server-side apply reads a custom resource's applied configuration as structured-merge-diff types
// made from its CRD's schema (kube-openapi's schemaconv over the published OpenAPI): an object
// with properties declares exactly those fields; one with neither properties nor
// additionalProperties, or under x-kubernetes-preserve-unknown-fields (which holds for everything
// beneath it), takes any; metadata at the root and in embedded resources is ObjectMeta, whose
// fields the caller checks (`metadataProblems`).

/** One step of a structured-merge-diff path: a field name, a list index, or a `[key=value]` selector. */
export type PathStep = string | number;

/** The undeclared fields of an applied configuration, as paths (document order); ObjectMeta checked by `metadataProblems`. */
export function undeclaredFields(config: Record<string, unknown>, schema: JsonSchema, metadataProblems: (metadata: Record<string, unknown>) => PathStep[][]): PathStep[][] {
  const found: PathStep[][] = [];
  const walk = (value: unknown, s: JsonSchema | undefined, at: PathStep[], preserve: boolean, typeMeta: boolean): void => {
    if (!s) return;
    const keeps = preserve || s['x-kubernetes-preserve-unknown-fields'] === true;
    if (Array.isArray(value)) {
      value.forEach((item, i) => walk(item, s.items, [...at, listStep(s, item, i)], keeps, false));
      return;
    }
    if (!isObject(value)) return;
    const typeMetaHere = typeMeta || s['x-kubernetes-embedded-resource'] === true;
    for (const [key, child] of Object.entries(value)) {
      if (typeMetaHere && (key === 'apiVersion' || key === 'kind')) continue;
      if (typeMetaHere && key === 'metadata') {
        if (isObject(child)) found.push(...metadataProblems(child).map((p) => [...at, 'metadata', ...p]));
        continue;
      }
      const declared = s.properties?.[key];
      const additional = typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
      if (declared) walk(child, declared, [...at, key], keeps, false);
      else if (additional) walk(child, additional, [...at, key], keeps, false);
      else if (!(keeps || s.additionalProperties === true || !s.properties || Object.keys(s.properties).length === 0)) found.push([...at, key]);
    }
  };
  walk(config, schema, [], false, true);
  return found;
}

/** How structured-merge-diff names a list item: by its keys in a map list, by value in a set, else by index. */
function listStep(s: JsonSchema, item: unknown, index: number): PathStep {
  const keys = s['x-kubernetes-list-map-keys'];
  if (s['x-kubernetes-list-type'] === 'map' && keys?.length && isObject(item)) {
    return `[${[...keys].sort().map((k) => `${k}=${JSON.stringify(item[k])}`).join(',')}]`;
  }
  if (s['x-kubernetes-list-type'] === 'set' && !isObject(item) && !Array.isArray(item)) return `[=${JSON.stringify(item)}]`;
  return index;
}
