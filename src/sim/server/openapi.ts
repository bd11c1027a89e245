// /openapi/v2 and /openapi/v3 as kube-apiserver answers them: the v2 document as JSON or in
// gnostic's protobuf form (kubectl's choice), the v3 index of group versions, and each group
// version's document; ETags are the documents' hashes (If-None-Match → 304), and a v3 URL with the
// current `?hash=` is immutable while one with an old hash redirects to the current one.
import type { IncomingHttpHeaders } from 'node:http';
import { OPENAPI_V2_PROTOBUF, type OpenApiService, type Rendered } from '../openapi/openApiService.ts';
import { parseAccept } from './mediaTypes.ts';
import { apiError, pageNotFound } from './status.ts';

export { OPENAPI_V2_PROTOBUF };
const OPENAPI_V3_PROTOBUF = 'application/com.github.proto-openapi.spec.v3@v1.0+protobuf';

export interface OpenApiAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

function answer(doc: Rendered, contentType: string, headers: IncomingHttpHeaders, cacheControl: string): OpenApiAnswer {
  const etag = `"${doc.hash}"`;
  const common = { ETag: etag, Vary: 'Accept', 'Cache-Control': cacheControl };
  if (headers['if-none-match'] === etag) return { status: 304, headers: common, body: Buffer.alloc(0) };
  return { status: 200, headers: { ...common, 'Content-Type': contentType }, body: doc.body };
}

function acceptsJson(accept: string | undefined): boolean {
  return parseAccept(accept).some((r) => r.type === 'application/json' || r.type === 'application/*' || r.type === '*/*');
}

/** `path` is what follows /openapi/ (`v2`, `v3`, `v3/apis/apps/v1`); `query` the raw query string. */
export function openApiAnswer(service: OpenApiService, path: string, query: string, headers: IncomingHttpHeaders): OpenApiAnswer {
  const accept = headers.accept;
  if (path === 'v2') {
    const wantsProtobuf = parseAccept(accept)[0]?.type === OPENAPI_V2_PROTOBUF;
    // The answer's type is plain octet-stream: Go's mime parser rejects the '@' of the asked type.
    if (wantsProtobuf) return answer(service.v2(true), 'application/octet-stream', headers, 'no-cache, private');
    return answer(service.v2(false), 'application/json', headers, 'no-cache, private');
  }
  if (path === 'v3') return answer(service.v3Index(), 'application/json', headers, 'no-cache, private');
  if (!path.startsWith('v3/')) throw pageNotFound();
  const groupVersion = path.slice('v3/'.length);
  const doc = service.v3(groupVersion);
  // The v3 handler answers a group-version it does not serve with a bare 404: no body, no type.
  if (!doc) return { status: 404, headers: {}, body: Buffer.alloc(0) };
  if (!acceptsJson(accept)) {
    const only = parseAccept(accept).map((r) => r.type).join(', ');
    throw apiError(406, `only the following media types are accepted: application/json${only.includes(OPENAPI_V3_PROTOBUF) ? ' (protobuf is not served)' : ''}`);
  }
  const hash = new URLSearchParams(query).get('hash');
  if (hash === null) return answer(doc, 'application/json', headers, 'no-cache, private');
  if (hash !== doc.hash) {
    return { status: 301, headers: { Location: `/openapi/v3/${groupVersion}?hash=${doc.hash}`, 'Cache-Control': 'no-cache, private' }, body: Buffer.alloc(0) };
  }
  const expires = new Date(Date.now() + 365 * 24 * 3600 * 1000).toUTCString();
  const a = answer(doc, 'application/json', headers, 'public, immutable');
  a.headers['Expires'] = expires;
  return a;
}
