import type { KubeObject } from '../../shared/k8s.ts';
import { builtinOpenApi } from './builtinDefinitions.ts';
import { reversedGroup, type Schema } from './schema.ts';

// The definitions a CustomResourceDefinition publishes, as the API server builds them from each
// served version's structural schema: the kind (apiVersion, kind and metadata filled in, tagged
// with its group/version/kind) and its List. Published as OpenAPI v3 component schemas; the
// Swagger 2.0 form drops what v2 cannot say (see toV2).

export interface CrdDefinitions {
  group: string;
  version: string;
  kind: string;
  plural: string;
  definition: string;
  listDefinition: string;
  /** By definition name, in OpenAPI v3 form with refs to #/components/schemas/. */
  schemas: Record<string, Schema>;
}

interface CrdVersionSpec {
  name?: string;
  served?: boolean;
  schema?: { openAPIV3Schema?: Schema };
}

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const LIST_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta';

function typeMetaDescriptions(): { apiVersion: string; kind: string; metadata: string; listMetadata: string } {
  const cm = builtinOpenApi().definitions['io.k8s.api.core.v1.ConfigMap']!['properties'] as Record<string, Schema>;
  const list = builtinOpenApi().definitions['io.k8s.api.core.v1.ConfigMapList']!['properties'] as Record<string, Schema>;
  return {
    apiVersion: cm['apiVersion']!['description'] as string,
    kind: cm['kind']!['description'] as string,
    metadata: cm['metadata']!['description'] as string,
    listMetadata: list['metadata']!['description'] as string,
  };
}

/** One entry per served version that has a schema. */
export function crdDefinitions(crd: Readonly<KubeObject>): CrdDefinitions[] {
  const spec = (crd.spec ?? {}) as { group?: string; names?: { kind?: string; plural?: string; listKind?: string }; versions?: CrdVersionSpec[] };
  const group = spec.group ?? '';
  const kind = spec.names?.kind ?? '';
  const plural = spec.names?.plural ?? '';
  const listKind = spec.names?.listKind ?? `${kind}List`;
  const out: CrdDefinitions[] = [];
  const docs = typeMetaDescriptions();
  for (const v of spec.versions ?? []) {
    const schema = v.schema?.openAPIV3Schema;
    if (v.served === false || !v.name || !schema) continue;
    const prefix = `${reversedGroup(group)}.${v.name}`;
    const definition = `${prefix}.${kind}`;
    const listDefinition = `${prefix}.${listKind}`;
    const properties = { ...((schema['properties'] ?? {}) as Record<string, Schema>) };
    properties['apiVersion'] = { description: docs.apiVersion, type: 'string' };
    properties['kind'] = { description: docs.kind, type: 'string' };
    properties['metadata'] = { allOf: [{ $ref: `#/components/schemas/${OBJECT_META}` }], description: docs.metadata };
    const kindSchema: Schema = { ...schema, type: 'object', properties, 'x-kubernetes-group-version-kind': [{ group, kind, version: v.name }] };
    const listSchema: Schema = {
      description: `${listKind} is a list of ${kind}`,
      required: ['items'],
      type: 'object',
      properties: {
        apiVersion: { description: docs.apiVersion, type: 'string' },
        items: { description: `List of ${plural}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md`, type: 'array', items: { $ref: `#/components/schemas/${definition}` } },
        kind: { description: docs.kind, type: 'string' },
        metadata: { allOf: [{ $ref: `#/components/schemas/${LIST_META}` }], description: docs.listMetadata },
      },
      'x-kubernetes-group-version-kind': [{ group, kind: listKind, version: v.name }],
    };
    out.push({ group, version: v.name, kind, plural, definition, listDefinition, schemas: { [definition]: kindSchema, [listDefinition]: listSchema } });
  }
  return out;
}

const V2_DROPPED = new Set(['nullable', 'oneOf', 'anyOf', 'not', 'x-kubernetes-validations']);

/**
 * A CRD's v3 schema as Swagger 2.0 says it (what the API server's v2 conversion does): v3-only
 * keywords go, `allOf: [{$ref}]` becomes a plain $ref, and int-or-string fields lose their type.
 */
export function toV2(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toV2);
  if (!schema || typeof schema !== 'object') return schema;
  const s = schema as Schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(s)) {
    if (V2_DROPPED.has(k)) continue;
    if (k === '$ref' && typeof v === 'string') out[k] = v.replace('#/components/schemas/', '#/definitions/');
    else if (k === 'properties' || k === 'patternProperties' || k === 'definitions') out[k] = Object.fromEntries(Object.entries(v as Schema).map(([n, p]) => [n, toV2(p)]));
    else if (k === 'default' || k === 'enum' || k === 'example' || k === 'x-kubernetes-group-version-kind' || k === 'required' || k === 'x-kubernetes-list-map-keys') out[k] = v;
    else out[k] = toV2(v);
  }
  const allOf = out['allOf'];
  if (Array.isArray(allOf) && allOf.length === 1 && (allOf[0] as Schema)['$ref']) {
    delete out['allOf'];
    out['$ref'] = (allOf[0] as Schema)['$ref'];
  }
  if (s['x-kubernetes-int-or-string'] === true) delete out['type'];
  // kubectl's v2 validation would refuse what an object keeping unknown fields takes: it is left untyped and open.
  if (s['x-kubernetes-preserve-unknown-fields'] === true) {
    delete out['properties'];
    delete out['items'];
    if (out['type'] === 'object') delete out['type'];
  }
  if (out['type'] === 'array' && out['items'] === undefined) delete out['type'];
  return out;
}

/**
 * A published definition in Swagger 2.0: as toV2 says it, except a kind whose whole schema keeps
 * unknown fields, which is only an object (with its group/version/kind), as kube-apiserver
 * publishes it so that kubectl lets any field through.
 */
export function definitionToV2(schema: Schema): Schema {
  if (schema['x-kubernetes-preserve-unknown-fields'] === true && schema['x-kubernetes-group-version-kind']) {
    return { type: 'object', 'x-kubernetes-group-version-kind': schema['x-kubernetes-group-version-kind'] };
  }
  return toV2(schema) as Schema;
}
