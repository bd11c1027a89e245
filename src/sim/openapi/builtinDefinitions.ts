import { gunzipSync } from 'node:zlib';
import { BUILTIN_OPENAPI_GZIP_BASE64 } from './builtinDefinitions.generated.ts';
import type { Schema } from './schema.ts';

// The generated definitions of the built-in kinds, unpacked once, on the first /openapi request.

export interface BuiltinOpenApi {
  /** The Kubernetes release the Go types come from. */
  version: string;
  /** Swagger 2.0 definitions by kube-openapi name (io.k8s.api.apps.v1.Deployment). */
  definitions: Record<string, Schema>;
  v3: {
    /** Scalars that are oneOf several types in v3 (Quantity: string or number). */
    oneOf: Record<string, string[]>;
    /** definition → property → the default v3 documents show ({} for structs, zero scalars). */
    defaults: Record<string, Record<string, unknown>>;
  };
}

let unpacked: BuiltinOpenApi | undefined;

export function builtinOpenApi(): BuiltinOpenApi {
  unpacked ??= JSON.parse(gunzipSync(Buffer.from(BUILTIN_OPENAPI_GZIP_BASE64, 'base64')).toString('utf8')) as BuiltinOpenApi;
  return unpacked;
}

/** kube-openapi's name for a kind: `io.k8s.api.apps.v1.Deployment`, `io.k8s.api.core.v1.Pod`. */
export function builtinDefinitionName(group: string, version: string, kind: string): string | undefined {
  const defs = builtinOpenApi().definitions;
  for (const [name, schema] of Object.entries(defs)) {
    const gvks = schema['x-kubernetes-group-version-kind'] as { group: string; version: string; kind: string }[] | undefined;
    if (gvks?.length === 1 && gvks.some((g) => g.group === group && g.version === version && g.kind === kind)) return name;
  }
  return undefined;
}
