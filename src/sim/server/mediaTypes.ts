// Content negotiation the way kubectl and client-go use it. Responses are always JSON; the Accept
// header only decides *which* JSON (a plain object, a meta.k8s.io Table, or an aggregated discovery
// document), and whether we must refuse (406) because the client accepts no JSON at all.
import { apiError } from './status.ts';

export interface MediaRange {
  type: string;
  params: Record<string, string>;
}

const parsedCache = new Map<string, MediaRange[]>();

/** Parses `a/b;k=v, c/d` (order kept: clients list preferences first; q-values are not used by them). */
export function parseAccept(header: string | undefined): MediaRange[] {
  if (!header) return [{ type: '*/*', params: {} }];
  const cached = parsedCache.get(header);
  if (cached) return cached;
  const ranges: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [typePart, ...paramParts] = part.split(';');
    const type = (typePart ?? '').trim().toLowerCase();
    if (!type) continue;
    const params: Record<string, string> = {};
    for (const p of paramParts) {
      const eq = p.indexOf('=');
      if (eq > 0) params[p.slice(0, eq).trim().toLowerCase()] = p.slice(eq + 1).trim();
    }
    ranges.push({ type, params });
  }
  if (parsedCache.size < 256) parsedCache.set(header, ranges);
  return ranges;
}

function acceptsJson(range: MediaRange): boolean {
  return range.type === 'application/json' || range.type === '*/*' || range.type === 'application/*';
}

/** What a resource GET/LIST/WATCH answers with: the object, a Table, or only its metadata. */
export type ObjectRendering = 'object' | 'table' | 'metadata';

/**
 * The first acceptable rendering: `application/json;as=Table;g=meta.k8s.io;v=v1|v1beta1` → table;
 * `as=PartialObjectMetadata` (for one object or a watch) or `as=PartialObjectMetadataList` (for a
 * list) in meta.k8s.io/v1 → metadata, as client-go's metadata client asks; plain JSON (or a
 * wildcard) → the object. Protobuf-only clients get 406 (kubectl never is one), and so do clients
 * that accept only a Table of a resource without one (`tables` false: the reviews, which have no
 * table convertor in kube-apiserver).
 */
export function negotiateObjectRendering(accept: string | undefined, shape: 'item' | 'list' = 'item', tables = true): ObjectRendering {
  for (const range of parseAccept(accept)) {
    if (!acceptsJson(range)) continue;
    const as = range.params['as'];
    if (as === undefined) return 'object';
    if (range.params['g'] !== 'meta.k8s.io') continue;
    const version = range.params['v'];
    if (as === 'Table' && tables && (version === 'v1' || version === 'v1beta1')) return 'table';
    if (version === 'v1' && as === (shape === 'list' ? 'PartialObjectMetadataList' : 'PartialObjectMetadata')) return 'metadata';
  }
  throw notAcceptable();
}

export type DiscoveryRendering = 'legacy' | 'aggregated-v2' | 'aggregated-v2beta1';

/** Discovery: the aggregated form when asked first, else the classic documents. */
export function negotiateDiscoveryRendering(accept: string | undefined): DiscoveryRendering {
  for (const range of parseAccept(accept)) {
    if (!acceptsJson(range)) continue;
    const as = range.params['as'];
    if (as === undefined) return 'legacy';
    if (as === 'APIGroupDiscoveryList' && range.params['g'] === 'apidiscovery.k8s.io') {
      if (range.params['v'] === 'v2') return 'aggregated-v2';
      if (range.params['v'] === 'v2beta1') return 'aggregated-v2beta1';
    }
  }
  throw notAcceptable();
}

function notAcceptable() {
  return apiError(406, 'only the following media types are accepted: application/json, application/yaml', 'NotAcceptable');
}

/** Request body formats, by Content-Type (parameters such as charset ignored). */
export type BodyFormat = 'json' | 'yaml' | 'protobuf';
export type PatchType = 'merge' | 'json' | 'strategic' | 'apply';

export function mediaTypeOf(contentType: string | undefined): string {
  if (!contentType) return '';
  const semi = contentType.indexOf(';');
  return (semi < 0 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
}

export function patchTypeOf(contentType: string | undefined): PatchType {
  switch (mediaTypeOf(contentType)) {
    case 'application/merge-patch+json':
      return 'merge';
    case 'application/json-patch+json':
      return 'json';
    case 'application/strategic-merge-patch+json':
      return 'strategic';
    case 'application/apply-patch+yaml':
    case 'application/apply-patch+cbor':
      return 'apply';
    default:
      // Refused by the route (go-restful matches a PATCH's Content-Type first), in its words.
      throw apiError(415, '415: Unsupported Media Type', 'UnsupportedMediaType', {});
  }
}

export const PROTOBUF = 'application/vnd.kubernetes.protobuf';

/** Create/update bodies: JSON (the default when unset), YAML, or protobuf for the kinds we decode. */
export function bodyFormatOf(contentType: string | undefined): BodyFormat {
  const type = mediaTypeOf(contentType);
  // Only a missing or blank header means the default: one that names no media type (";;;=") is
  // what Go's mime.ParseMediaType fails, which kube-apiserver answers 415.
  if (type === '' && !contentType?.trim()) return 'json';
  if (type === 'application/json' || type === '*/*') return 'json';
  if (type === 'application/yaml' || type === 'application/x-yaml' || type === 'text/yaml') return 'yaml';
  if (type === PROTOBUF) return 'protobuf';
  throw apiError(
    415,
    `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf`,
    'UnsupportedMediaType',
  );
}
