// OpenAPI schemas as plain JSON objects (Swagger 2.0 definitions and OpenAPI v3 component schemas
// share this shape; the differences are handled where the documents are rendered).

export type Schema = { [key: string]: unknown };

/** The definitions one schema reaches through $ref, itself included (by definition name). */
export function reachableDefinitions(roots: Iterable<string>, definitions: Record<string, Schema>, refPrefix = '#/definitions/'): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length) {
    const name = stack.pop()!;
    if (seen.has(name) || !definitions[name]) continue;
    seen.add(name);
    collectRefs(definitions[name], refPrefix, stack);
  }
  return seen;
}

function collectRefs(value: unknown, prefix: string, into: string[]): void {
  if (Array.isArray(value)) {
    for (const v of value) collectRefs(v, prefix, into);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith(prefix)) into.push(v.slice(prefix.length));
      else collectRefs(v, prefix, into);
    }
  }
}

/** `stable.example.com` → `com.example.stable`: how the API server names CRD definitions. */
export function reversedGroup(group: string): string {
  return group.split('.').reverse().join('.');
}
