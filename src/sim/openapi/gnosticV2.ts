import type { Schema } from './schema.ts';

// A Swagger 2.0 document in gnostic's protobuf form (openapi_v2.Document, github.com/google/
// gnostic-models/openapiv2/OpenAPIv2.proto), the form kubectl downloads from /openapi/v2. Only the
// messages a Kubernetes document uses are written. Vendor extensions, defaults and enum values are
// gnostic `Any`s holding YAML text; JSON is YAML, so they hold the value's JSON.

type Part = Buffer;

function varint(n: number | bigint): number[] {
  if (typeof n === 'number' && n >= 0 && n < 0x80000000) {
    const out: number[] = [];
    while (n > 0x7f) {
      out.push((n & 0x7f) | 0x80);
      n >>>= 7;
    }
    out.push(n);
    return out;
  }
  let v = BigInt.asUintN(64, BigInt(n));
  const out: number[] = [];
  while (v > 0x7fn) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return out;
}

function key(field: number, wire: number): number[] {
  return varint((field << 3) | wire);
}

function bytesField(field: number, payload: Buffer): Part {
  return Buffer.concat([Buffer.from([...key(field, 2), ...varint(payload.length)]), payload]);
}

/** A string field, written straight after its header (one allocation: strings are most of a document). */
function stringField(field: number, value: string): Part {
  const length = Buffer.byteLength(value, 'utf8');
  const header = [...key(field, 2), ...varint(length)];
  const out = Buffer.allocUnsafe(header.length + length);
  out.set(header);
  out.write(value, header.length, 'utf8');
  return out;
}

function str(field: number, value: unknown): Part[] {
  return typeof value === 'string' && value !== '' ? [stringField(field, value)] : [];
}

function strs(field: number, values: unknown): Part[] {
  return Array.isArray(values) ? values.flatMap((v) => (typeof v === 'string' ? [stringField(field, v)] : [])) : [];
}

function bool(field: number, value: unknown): Part[] {
  return value === true ? [Buffer.from([...key(field, 0), 1])] : [];
}

function int64(field: number, value: unknown): Part[] {
  return typeof value === 'number' && value !== 0 ? [Buffer.from([...key(field, 0), ...varint(Math.trunc(value))])] : [];
}

function double(field: number, value: unknown): Part[] {
  if (typeof value !== 'number' || value === 0) return [];
  const b = Buffer.alloc(8);
  b.writeDoubleLE(value);
  return [Buffer.concat([Buffer.from(key(field, 1)), b])];
}

/** A nested message: its header, then its parts as they are (bytes are copied once, at the end). */
function message(field: number, parts: Part[]): Part[] {
  let size = 0;
  for (const p of parts) size += p.length;
  return [Buffer.from([...key(field, 2), ...varint(size)]), ...parts];
}

/** gnostic Any { yaml = 2 }. */
function any(field: number, value: unknown): Part[] {
  return message(field, str(2, JSON.stringify(value)));
}

/** NamedAny { name = 1; value = 2 } for each x- key. */
function vendorExtensions(field: number, object: Schema): Part[] {
  return Object.entries(object)
    .filter(([k]) => k.startsWith('x-'))
    .flatMap(([k, v]) => message(field, [...str(1, k), ...any(2, v)]));
}

function schemaParts(s: Schema): Part[] {
  const parts: Part[] = [
    ...str(1, s['$ref']), ...str(2, s['format']), ...str(3, s['title']), ...str(4, s['description']),
  ];
  if (s['default'] !== undefined) parts.push(...any(5, s['default']));
  parts.push(
    ...double(6, s['multipleOf']), ...double(7, s['maximum']), ...bool(8, s['exclusiveMaximum']),
    ...double(9, s['minimum']), ...bool(10, s['exclusiveMinimum']), ...int64(11, s['maxLength']),
    ...int64(12, s['minLength']), ...str(13, s['pattern']), ...int64(14, s['maxItems']), ...int64(15, s['minItems']),
    ...bool(16, s['uniqueItems']), ...int64(17, s['maxProperties']), ...int64(18, s['minProperties']), ...strs(19, s['required']),
  );
  if (Array.isArray(s['enum'])) for (const v of s['enum']) parts.push(...any(20, v));
  const additional = s['additionalProperties'];
  if (additional && typeof additional === 'object') parts.push(...message(21, message(1, schemaParts(additional as Schema))));
  else if (typeof additional === 'boolean') parts.push(...message(21, [Buffer.from([...key(2, 0), additional ? 1 : 0])]));
  const type = s['type'];
  if (type !== undefined) parts.push(...message(22, strs(1, Array.isArray(type) ? type : [type])));
  const items = s['items'];
  if (items && typeof items === 'object') {
    const list = Array.isArray(items) ? items : [items];
    parts.push(...message(23, list.flatMap((i) => message(1, schemaParts(i as Schema)))));
  }
  if (Array.isArray(s['allOf'])) for (const a of s['allOf']) parts.push(...message(24, schemaParts(a as Schema)));
  const properties = s['properties'];
  if (properties && typeof properties === 'object') {
    parts.push(...message(25, Object.entries(properties as Record<string, Schema>).flatMap(([name, p]) => message(1, [...str(1, name), ...message(2, schemaParts(p))]))));
  }
  parts.push(...str(26, s['discriminator']), ...bool(27, s['readOnly']));
  if (s['example'] !== undefined) parts.push(...any(30, s['example']));
  parts.push(...vendorExtensions(31, s));
  return parts;
}

function encodeParameter(p: Schema): Part[] {
  if (p['in'] === 'body') {
    const body = [...str(1, p['description']), ...str(2, p['name']), ...str(3, p['in']), ...bool(4, p['required']), ...message(5, schemaParts(p['schema'] as Schema))];
    return message(1, message(1, body));
  }
  // QueryParameterSubSchema (3) and PathParameterSubSchema (4) differ in where type and uniqueItems go.
  const isPath = p['in'] === 'path';
  const sub = [
    ...bool(1, p['required']), ...str(2, p['in']), ...str(3, p['description']), ...str(4, p['name']),
    ...str(isPath ? 5 : 6, p['type']), ...bool(isPath ? 19 : 20, p['uniqueItems']),
  ];
  return message(1, message(2, message(isPath ? 4 : 3, sub)));
}

function encodeOperation(op: Schema): Buffer {
  const parts: Part[] = [...strs(1, op['tags']), ...str(3, op['description']), ...str(5, op['operationId']), ...strs(6, op['produces']), ...strs(7, op['consumes'])];
  for (const p of (op['parameters'] ?? []) as Schema[]) parts.push(bytesField(8, Buffer.concat(encodeParameter(p))));
  const responses = Object.entries((op['responses'] ?? {}) as Record<string, Schema>).flatMap(([code, r]) => {
    const response = [...str(1, r['description'])];
    if (r['schema']) response.push(...message(2, message(1, schemaParts(r['schema'] as Schema))));
    return message(1, [...str(1, code), ...message(2, message(1, response))]);
  });
  parts.push(...message(9, responses), ...strs(10, op['schemes']), ...vendorExtensions(13, op));
  return Buffer.concat(parts);
}

const METHOD_FIELDS: Record<string, number> = { get: 2, put: 3, post: 4, delete: 5, options: 6, head: 7, patch: 8 };

function encodePathItem(item: Schema): Buffer {
  const parts: Part[] = [];
  for (const [method, field] of Object.entries(METHOD_FIELDS)) if (item[method]) parts.push(bytesField(field, encodeOperation(item[method] as Schema)));
  for (const p of (item['parameters'] ?? []) as Schema[]) parts.push(bytesField(9, Buffer.concat(encodeParameter(p))));
  return Buffer.concat(parts);
}

// Most of a document never changes (the built-in definitions, the built-in kinds' paths): what was
// encoded once is reused when a CRD change makes the document be encoded again.
const encodedDefinitions = new WeakMap<object, Buffer>();
const encodedPaths = new Map<string, Buffer>();

function cachedDefinition(name: string, s: Schema): Buffer {
  let encoded = encodedDefinitions.get(s);
  if (!encoded) {
    encoded = Buffer.concat(message(1, [...str(1, name), ...message(2, schemaParts(s))]));
    encodedDefinitions.set(s, encoded);
  }
  return encoded;
}

function cachedPath(path: string, item: Schema): Buffer {
  const cacheKey = `${path}\n${JSON.stringify(item)}`;
  let encoded = encodedPaths.get(cacheKey);
  if (!encoded) {
    encoded = Buffer.concat(message(2, [...str(1, path), bytesField(2, encodePathItem(item))]));
    if (encodedPaths.size > 4096) encodedPaths.clear();
    encodedPaths.set(cacheKey, encoded);
  }
  return encoded;
}

/** The whole document: swagger, info, paths, definitions, security. */
export function encodeDocument(doc: Schema): Buffer {
  const info = doc['info'] as Schema;
  const paths = Object.entries((doc['paths'] ?? {}) as Record<string, Schema>).map(([path, item]) => cachedPath(path, item));
  const definitions = Object.entries((doc['definitions'] ?? {}) as Record<string, Schema>).map(([name, s]) => cachedDefinition(name, s));
  const parts: Part[] = [...str(1, doc['swagger']), ...message(2, [...str(1, info['title']), ...str(2, info['version'])]), ...message(8, paths), ...message(9, definitions)];
  for (const requirement of (doc['security'] ?? []) as Record<string, string[]>[]) {
    parts.push(...message(12, Object.entries(requirement).flatMap(([name, scopes]) => message(1, [...str(1, name), ...message(2, strs(1, scopes))]))));
  }
  const securityDefinitions = Object.entries((doc['securityDefinitions'] ?? {}) as Record<string, Schema>).flatMap(([name, d]) =>
    message(1, [...str(1, name), ...message(2, message(2, [...str(1, d['type']), ...str(2, d['name']), ...str(3, d['in']), ...str(4, d['description'])]))]),
  );
  if (securityDefinitions.length) parts.push(...message(13, securityDefinitions));
  return Buffer.concat(parts);
}
