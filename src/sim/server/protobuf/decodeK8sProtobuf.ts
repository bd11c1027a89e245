// Kubernetes protobuf bodies (application/vnd.kubernetes.protobuf) to the JSON objects the store
// takes. The body is the "k8s\0" magic, then a runtime.Unknown { typeMeta {apiVersion, kind}, raw };
// `raw` is the object in its own message. Fields print as Go's JSON encoding would: empty strings
// and zero timestamps are left out (omitempty), bytes become base64, times RFC 3339.
import { MESSAGES_BY_TYPE, type FieldSpec, type MessageSpec, type Scalar } from './k8sMessages.ts';
import { WIRE_LENGTH_DELIMITED, WireReader } from './wireReader.ts';

const MAGIC = [0x6b, 0x38, 0x73, 0x00];

export class UnsupportedProtobufKind extends Error {
  readonly typeName: string;

  constructor(typeName: string) {
    super(`no protobuf decoding for ${typeName}`);
    this.typeName = typeName;
  }
}

function timestamp(bytes: Uint8Array, micro: boolean): string | undefined {
  const r = new WireReader(bytes);
  let seconds = 0;
  let nanos = 0;
  for (let t = r.tag(); t; t = r.tag()) {
    if (t.field === 1) seconds = r.signedVarint();
    else if (t.field === 2) nanos = r.signedVarint();
    else r.skip(t.wire);
  }
  if (seconds === 0 && nanos === 0) return undefined;
  const iso = new Date(seconds * 1000).toISOString().slice(0, 19);
  return micro ? `${iso}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z` : `${iso}Z`;
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
    case 'time':
    case 'microTime':
      return timestamp(r.bytes(), type === 'microTime');
    case 'fieldsV1': {
      // FieldsV1 { raw = 1 }: raw holds the JSON of the field set.
      const inner = new WireReader(r.bytes());
      let value: unknown = {};
      for (let t = inner.tag(); t; t = inner.tag()) {
        if (t.field === 1 && t.wire === WIRE_LENGTH_DELIMITED) value = JSON.parse(Buffer.from(inner.bytes()).toString('utf8'));
        else inner.skip(t.wire);
      }
      return value;
    }
    default:
      r.skip(wire);
      return undefined;
  }
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
    const value = typeof field.type === 'string' ? scalar(field.type, r, t.wire) : message(r.bytes(), field.type);
    // An empty string is Go's unset field, except as a list item: apiGroups [""] is the core group.
    if (value === undefined || (value === '' && !field.repeated)) continue;
    if (field.repeated) ((out[field.name] ??= []) as unknown[]).push(value);
    else out[field.name] = value;
  }
  return out;
}

export function isKubernetesProtobuf(body: Uint8Array): boolean {
  return body.length >= 4 && MAGIC.every((b, i) => body[i] === b);
}

/** Decodes an enveloped body to JSON; throws UnsupportedProtobufKind for kinds without a table. */
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
  const spec = MESSAGES_BY_TYPE[`${apiVersion}/${kind}`];
  if (!spec) throw new UnsupportedProtobufKind(`${apiVersion}/${kind}`);
  const object = message(raw ?? new Uint8Array(), spec);
  const withType: Record<string, unknown> = { apiVersion, kind, ...object };
  if (kind !== 'DeleteOptions' && withType['metadata'] === undefined) withType['metadata'] = {};
  return withType;
}
