// Minimal OpenAPI documents. kubectl apply downloads /openapi/v2 (as protobuf) and fails outright on a
// 404, but it only *uses* the schema when it finds the kind in it: with an empty document it skips
// client-side validation (the server validates) and builds strategic merge patches from its
// compiled-in types, as it does for kinds an apiserver does not publish. So we publish an empty one.
import { parseAccept } from './mediaTypes.ts';
import { pathNotFound } from './status.ts';

export const OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
}

/** A length-delimited protobuf field (wire type 2): strings and embedded messages alike. */
function lengthDelimited(fieldNumber: number, payload: Buffer): Buffer {
  return Buffer.concat([Buffer.from([...varint((fieldNumber << 3) | 2), ...varint(payload.length)]), payload]);
}

/** gnostic openapi_v2.Document { swagger = 1; info = 2 { title = 1; version = 2 }; paths = 8 }. */
export function openApiV2Protobuf(version: string): Buffer {
  const info = Buffer.concat([lengthDelimited(1, Buffer.from('Kubernetes')), lengthDelimited(2, Buffer.from(version))]);
  return Buffer.concat([lengthDelimited(1, Buffer.from('2.0')), lengthDelimited(2, info), lengthDelimited(8, Buffer.alloc(0))]);
}

export interface OpenApiAnswer {
  contentType: string;
  body: string | Buffer;
}

/** `path` is what follows /openapi/ (`v2`, `v3`, `v3/apis/apps/v1`). */
export function openApiDocument(path: string, accept: string | undefined, version: string): OpenApiAnswer {
  if (path === 'v2') {
    const wantsProtobuf = parseAccept(accept)[0]?.type === OPENAPI_V2_PROTOBUF;
    // The answer's type is plain octet-stream: Go's mime parser rejects the '@' of the asked type.
    if (wantsProtobuf) return { contentType: 'application/octet-stream', body: openApiV2Protobuf(version) };
    return { contentType: 'application/json', body: JSON.stringify({ swagger: '2.0', info: { title: 'Kubernetes', version }, paths: {} }) };
  }
  // The v3 index lists no group versions: clients then fall back exactly as for v2.
  if (path === 'v3') return { contentType: 'application/json', body: '{"paths":{}}' };
  throw pathNotFound();
}
