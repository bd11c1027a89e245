// Kubernetes protobuf bodies (application/vnd.kubernetes.protobuf) to the JSON objects the store
// takes. The body is the "k8s\0" magic, then a runtime.Unknown { typeMeta {apiVersion, kind}, raw };
// `raw` is the object in its own message, walked with the generated schemas (k8sMessages.ts). Fields
// print as Go's JSON encoding would: empty strings (unless a pointer holds them), zero pointer timestamps and the zeros of
// omitempty scalars are left out, a zero non-pointer metav1.Time is null, json:",inline" structs
// merge into their parent, bytes become base64, and apimachinery's special types take their JSON
// forms (specialTypes.ts).
import { messageForType, type FieldSpec, type MessageSpec, type Scalar } from './k8sMessages.ts';
import { duration, embeddedJson, intOrString, quantity, timestamp } from './specialTypes.ts';
import { WIRE_FIXED64, WIRE_LENGTH_DELIMITED, WIRE_VARINT, WireReader } from './wireReader.ts';

const MAGIC = [0x6b, 0x38, 0x73, 0x00];

export class UnsupportedProtobufKind extends Error {
  readonly typeName: string;

  constructor(typeName: string) {
    super(`no protobuf decoding for ${typeName}`);
    this.typeName = typeName;
  }
}

/** The items of a named string slice's wrapper message (field 1, repeated). */
function stringList(bytes: Uint8Array): string[] {
  const r = new WireReader(bytes);
  const items: string[] = [];
  for (let t = r.tag(); t; t = r.tag()) {
    if (t.field === 1 && t.wire === WIRE_LENGTH_DELIMITED) items.push(Buffer.from(r.bytes()).toString('utf8'));
    else r.skip(t.wire);
  }
  return items;
}

function scalar(type: Scalar, r: WireReader, wire: number): unknown {
  switch (type) {
    case 'string':
      return Buffer.from(r.bytes()).toString('utf8');
    case 'bytes':
      return Buffer.from(r.bytes()).toString('base64');
    case 'bool':
      return r.varint() !== 0;
    case 'int':
      return r.signedVarint();
    case 'double':
      return wire === WIRE_FIXED64 ? r.double() : (r.skip(wire), undefined);
    case 'time':
    case 'microTime':
      return timestamp(r.bytes(), type === 'microTime');
    case 'duration':
      return duration(r.bytes());
    case 'intOrString':
      return intOrString(r.bytes());
    case 'quantity':
      return quantity(r.bytes());
    case 'rawExtension':
      return embeddedJson(r.bytes());
    case 'fieldsV1':
      return embeddedJson(r.bytes()) ?? {};
    case 'stringList':
      return stringList(r.bytes());
    default:
      r.skip(wire);
      return undefined;
  }
}

const NUMERIC: ReadonlySet<Scalar> = new Set(['int', 'bool', 'double']);

/** A packed repeated number field (proto3-style; accepted though Go's proto2 encoder writes them unpacked). */
function packed(type: Scalar, bytes: Uint8Array): unknown[] {
  const r = new WireReader(bytes);
  const out: unknown[] = [];
  while (!r.done) out.push(scalar(type, r, type === 'double' ? WIRE_FIXED64 : WIRE_VARINT));
  return out;
}

function mapEntry(bytes: Uint8Array, spec: FieldSpec): [string, unknown] {
  const r = new WireReader(bytes);
  let key = '';
  let value: unknown = spec.type === 'bytes' ? '' : '';
  for (let t = r.tag(); t; t = r.tag()) {
    if (t.field === 1) key = Buffer.from(r.bytes()).toString('utf8');
    else if (t.field === 2) value = typeof spec.type === 'string' ? scalar(spec.type, r, t.wire) : message(r.bytes(), spec.type);
    else r.skip(t.wire);
  }
  return [key, value];
}

function message(bytes: Uint8Array, spec: MessageSpec): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const r = new WireReader(bytes);
  for (let t = r.tag(); t; t = r.tag()) {
    const field = spec[t.field];
    if (!field) {
      r.skip(t.wire);
      continue;
    }
    if (field.map) {
      const [k, v] = mapEntry(r.bytes(), field);
      ((out[field.name] ??= {}) as Record<string, unknown>)[k] = v;
      continue;
    }
    if (field.repeated && typeof field.type === 'string' && NUMERIC.has(field.type) && t.wire === WIRE_LENGTH_DELIMITED) {
      ((out[field.name] ??= []) as unknown[]).push(...packed(field.type, r.bytes()));
      continue;
    }
    const decoded = typeof field.type === 'string' ? scalar(field.type, r, t.wire) : message(r.bytes(), field.type);
    const value = decoded === undefined && field.nullWhenZero ? null : decoded;
    // An empty string is Go's unset field, except as a list item (apiGroups [""] is the core group)
    // and where a pointer holds it (a PVC's storageClassName "" asks for no class at all).
    if (value === undefined || (value === '' && !field.repeated && !field.pointer)) continue;
    // Go's protobuf encoder writes every non-pointer field; its JSON encoder omits omitempty zeros.
    if (field.omitZero && (value === 0 || value === false)) continue;
    if (field.inline) Object.assign(out, value);
    else if (field.repeated) ((out[field.name] ??= []) as unknown[]).push(value);
    else out[field.name] = value;
  }
  return out;
}

export function isKubernetesProtobuf(body: Uint8Array): boolean {
  return body.length >= 4 && MAGIC.every((b, i) => body[i] === b);
}

/** Decodes an enveloped body to JSON; throws UnsupportedProtobufKind for kinds without a schema. */
export function decodeKubernetesProtobuf(body: Uint8Array): Record<string, unknown> {
  if (!isKubernetesProtobuf(body)) throw new Error('not a Kubernetes protobuf body (no k8s\\0 prefix)');
  const envelope = new WireReader(body, 4);
  let apiVersion = '';
  let kind = '';
  let raw: Uint8Array | undefined;
  for (let t = envelope.tag(); t; t = envelope.tag()) {
    if (t.field === 1) {
      const meta = new WireReader(envelope.bytes());
      for (let m = meta.tag(); m; m = meta.tag()) {
        if (m.field === 1) apiVersion = Buffer.from(meta.bytes()).toString('utf8');
        else if (m.field === 2) kind = Buffer.from(meta.bytes()).toString('utf8');
        else meta.skip(m.wire);
      }
    } else if (t.field === 2) {
      raw = envelope.bytes();
    } else {
      envelope.skip(t.wire);
    }
  }
  // The API server registers DeleteOptions in every group version (metav1.AddToGroupVersion):
  // client-go sends a Deployment's as apps/v1 DeleteOptions.
  const spec = messageForType(kind === 'DeleteOptions' ? 'meta.k8s.io/v1/DeleteOptions' : `${apiVersion}/${kind}`);
  if (!spec) throw new UnsupportedProtobufKind(`${apiVersion}/${kind}`);
  const object = message(raw ?? new Uint8Array(), spec);
  // The object's own creationTimestamp is the server's to set: a zero one is left out (nested
  // templates keep Go's null, as JSON clients send it).
  const metadata = object['metadata'] as Record<string, unknown> | undefined;
  if (metadata?.['creationTimestamp'] === null) delete metadata['creationTimestamp'];
  const withType: Record<string, unknown> = { apiVersion, kind, ...object };
  if (kind !== 'DeleteOptions' && withType['metadata'] === undefined) withType['metadata'] = {};
  return withType;
}
