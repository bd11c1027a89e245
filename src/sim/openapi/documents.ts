import type { KubeObject } from '../../shared/k8s.ts';
import type { ResourceInfo } from '../vocabulary/resourceInfo.ts';
import { builtinDefinitionName, builtinOpenApi } from './builtinDefinitions.ts';
import { crdDefinitions, definitionToV2, type CrdDefinitions } from './crdDefinitions.ts';
import { discoveryDocuments, resourceListPath } from './discoveryPaths.ts';
import { DELETE_OPTIONS, PATCH_CONTENT_TYPES, PRODUCES, QUERY_DESCRIPTIONS, STATUS, groupVersionPath, pathsFor, queryType, type Operation, type PathEntry, type ServedKind } from './operations.ts';
import { reachableDefinitions, type Schema } from './schema.ts';
import { builtinV3Schemas } from './v3Schemas.ts';

// The OpenAPI documents of what the cluster serves right now: one Swagger 2.0 document
// (/openapi/v2) and one OpenAPI v3 document per group version (/openapi/v3/apis/apps/v1), built
// from the generated built-in definitions, the served resources and the CRDs' schemas.

export interface OpenApiDocuments {
  v2: Schema;
  /** `api/v1`, `apis/apps/v1` → its v3 document. */
  v3: Map<string, Schema>;
}

const SECURITY_V2 = { BearerToken: { description: 'Bearer Token authentication', in: 'header', name: 'authorization', type: 'apiKey' } };
const SECURITY_V3 = { BearerToken: { description: 'Bearer Token authentication', in: 'header', name: 'authorization', type: 'apiKey' } };

/** `resources`: what the registry serves; `crds`: the stored CustomResourceDefinitions. */
export function buildOpenApiDocuments(resources: readonly ResourceInfo[], crds: readonly Readonly<KubeObject>[], version: string): OpenApiDocuments {
  const byGroupVersionKind = new Map<string, CrdDefinitions>();
  for (const crd of crds) for (const d of crdDefinitions(crd)) byGroupVersionKind.set(`${d.group}/${d.version}/${d.kind}`, d);
  const served: ServedKind[] = [];
  const crdSchemas: Record<string, Schema> = {};
  for (const info of resources) {
    if (info.source === 'crd') {
      const d = byGroupVersionKind.get(`${info.group}/${info.version}/${info.kind}`);
      if (!d) continue;
      Object.assign(crdSchemas, d.schemas);
      served.push({ info, definition: d.definition, listDefinition: d.listDefinition });
    } else {
      const definition = builtinDefinitionName(info.group, info.version, info.kind);
      if (!definition) continue;
      const list = `${definition}List`;
      served.push({ info, definition, listDefinition: builtinOpenApi().definitions[list] ? list : undefined });
    }
  }
  const entries = new Map<string, PathEntry[]>();
  for (const kind of served) {
    const gv = groupVersionPath(kind.info.group, kind.info.version);
    entries.set(gv, [...(entries.get(gv) ?? [resourceListPath(kind.info.group, kind.info.version)]), ...pathsFor(kind)]);
  }
  for (const [key, list] of discoveryDocuments([...new Set(served.map((k) => k.info.group))])) entries.set(key, list);
  return { v2: v2Document(entries, crdSchemas, version), v3: v3Documents(entries, crdSchemas, version) };
}

function v2Document(entries: Map<string, PathEntry[]>, crdSchemas: Record<string, Schema>, version: string): Schema {
  const paths: Record<string, Schema> = {};
  for (const list of entries.values()) for (const entry of list) paths[entry.path] = v2PathItem(entry);
  const definitions: Record<string, Schema> = { ...builtinOpenApi().definitions };
  for (const [name, schema] of Object.entries(crdSchemas)) definitions[name] = definitionToV2(schema);
  return {
    swagger: '2.0',
    info: { title: 'Kubernetes', version },
    paths,
    definitions: sortedKeys(definitions),
    securityDefinitions: SECURITY_V2,
    security: [{ BearerToken: [] }],
  };
}

function v2PathItem(entry: PathEntry): Schema {
  const item: Schema = {};
  for (const op of entry.operations) {
    const parameters: Schema[] = [];
    if (op.body) parameters.push({ in: 'body', name: 'body', required: true, schema: op.body === 'patch' ? { type: 'object' } : { $ref: `#/definitions/${op.body}` } });
    for (const q of op.query) parameters.push({ description: QUERY_DESCRIPTIONS[q], in: 'query', name: q, type: queryType(q), uniqueItems: true });
    const responses: Schema = {};
    for (const [code, def] of Object.entries(op.responses)) responses[code] = { description: responseText(code), schema: { $ref: `#/definitions/${def}` } };
    responses['401'] = { description: 'Unauthorized' };
    item[op.method] = {
      consumes: op.consumes ?? (op.method === 'patch' ? op.patchTypes ?? PATCH_CONTENT_TYPES : ['*/*']),
      description: op.description,
      operationId: op.operationId,
      ...(parameters.length ? { parameters } : {}),
      produces: op.produces ?? PRODUCES,
      responses,
      schemes: ['https'],
      tags: [op.tag],
      ...(op.action ? { 'x-kubernetes-action': op.action } : {}),
      ...(op.gvk ? { 'x-kubernetes-group-version-kind': op.gvk } : {}),
    };
  }
  if (!isResourcePath(entry)) return item;
  item['parameters'] = [
    ...entry.pathParams.map((p) => ({ description: QUERY_DESCRIPTIONS[p], in: 'path', name: p, required: true, type: 'string', uniqueItems: true })),
    { description: QUERY_DESCRIPTIONS['pretty'], in: 'query', name: 'pretty', type: 'string', uniqueItems: true },
  ];
  return item;
}

/** Resource paths take `pretty` (and their path parameters); discovery paths take nothing. */
function isResourcePath(entry: PathEntry): boolean {
  return entry.operations.some((op) => op.gvk);
}

function responseText(code: string): string {
  return code === '200' ? 'OK' : code === '201' ? 'Created' : code === '202' ? 'Accepted' : code;
}

function v3Documents(entries: Map<string, PathEntry[]>, crdSchemas: Record<string, Schema>, version: string): Map<string, Schema> {
  const all: Record<string, Schema> = { ...builtinV3Schemas(), ...crdSchemas };
  const docs = new Map<string, Schema>();
  for (const [gv, list] of [...entries].sort(([a], [b]) => a.localeCompare(b))) {
    // A document with resource operations carries Status and DeleteOptions, as the API server's do.
    const roots = new Set<string>(list.some(isResourcePath) ? [STATUS, DELETE_OPTIONS] : []);
    const paths: Record<string, Schema> = {};
    for (const entry of list) {
      paths[entry.path] = v3PathItem(entry);
      for (const op of entry.operations) for (const def of [...Object.values(op.responses), op.body]) if (def && def !== 'patch') roots.add(def);
    }
    const names = [...reachableDefinitions(roots, all, '#/components/schemas/')].sort();
    docs.set(gv, {
      openapi: '3.0.0',
      info: { title: 'Kubernetes', version },
      paths,
      components: { schemas: Object.fromEntries(names.map((n) => [n, all[n]!])), securitySchemes: SECURITY_V3 },
    });
  }
  return docs;
}

const V3_MEDIA = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

function v3PathItem(entry: PathEntry): Schema {
  const item: Schema = {};
  for (const op of entry.operations) item[op.method] = v3Operation(op);
  if (!isResourcePath(entry)) return item;
  item['parameters'] = [
    ...entry.pathParams.map((p) => ({ description: QUERY_DESCRIPTIONS[p], in: 'path', name: p, required: true, schema: { type: 'string', uniqueItems: true } })),
    { description: QUERY_DESCRIPTIONS['pretty'], in: 'query', name: 'pretty', schema: { type: 'string', uniqueItems: true } },
  ];
  return item;
}

function v3Operation(op: Operation): Schema {
  const responses: Schema = {};
  for (const [code, def] of Object.entries(op.responses)) {
    responses[code] = { description: responseText(code), content: Object.fromEntries((op.produces ?? V3_MEDIA).map((m) => [m, { schema: { $ref: `#/components/schemas/${def}` } }])) };
  }
  responses['401'] = { description: 'Unauthorized' };
  const out: Schema = {
    tags: [op.tag],
    description: op.description,
    operationId: op.operationId,
    ...(op.query.length ? { parameters: op.query.map((q) => ({ name: q, in: 'query', description: QUERY_DESCRIPTIONS[q], schema: { type: queryType(q), uniqueItems: true } })) } : {}),
  };
  if (op.body) {
    const schema = op.body === 'patch' ? { type: 'object' } : { $ref: `#/components/schemas/${op.body}` };
    const types = op.method === 'patch' ? op.patchTypes ?? PATCH_CONTENT_TYPES : ['*/*'];
    out['requestBody'] = { content: Object.fromEntries(types.map((t) => [t, { schema }])), required: op.method !== 'delete' };
  }
  out['responses'] = responses;
  if (op.action) out['x-kubernetes-action'] = op.action;
  if (op.gvk) out['x-kubernetes-group-version-kind'] = op.gvk;
  return out;
}

function sortedKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
