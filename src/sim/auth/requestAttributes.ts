import type { UserInfo } from '../vocabulary/userInfo.ts';

// What an authorizer is asked about a request: kube-apiserver's RequestInfo read from the method,
// path and query by the same rules (k8s.io/apiserver's requestinfo.go), so a rule that allows a
// verb on a resource there allows the same request here.

export interface ResourceAttributes {
  readonly resourceRequest: true;
  readonly verb: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly resource: string;
  /** '' when none. */
  readonly subresource: string;
  /** '' for a collection (or a list narrowed by no `metadata.name` field selector). */
  readonly name: string;
  /** '' at the cluster scope (cluster-scoped kinds, or across all namespaces). */
  readonly namespace: string;
}

export interface NonResourceAttributes {
  readonly resourceRequest: false;
  readonly verb: string;
  readonly path: string;
}

export type RequestAttributes = ResourceAttributes | NonResourceAttributes;

/** An authorization question: may this user do that? */
export interface AuthorizationRequest {
  readonly user: UserInfo;
  readonly attributes: RequestAttributes;
}

const API_PREFIXES = new Set(['api', 'apis']);
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);
/** Verbs that stand as a path segment before the resource (`/api/v1/watch/pods`). */
const SPECIAL_VERBS = new Set(['proxy', 'watch']);
const METHOD_VERBS: Record<string, string> = { POST: 'create', GET: 'get', HEAD: 'get', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };

function segments(path: string): string[] {
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? [] : trimmed.split('/');
}

/** The name an exact `metadata.name=` (or `==`) field selector asks for, if the selector asks for one. */
function selectedName(fieldSelector: string | null): string {
  if (!fieldSelector) return '';
  let name = '';
  for (const term of fieldSelector.split(',')) {
    const match = /^\s*metadata\.name\s*==?\s*(.*?)\s*$/.exec(term);
    if (match) name = match[1]!;
  }
  return name && name !== '.' && name !== '..' && !/[/%]/.test(name) ? name : '';
}

function isWatch(query: URLSearchParams): boolean {
  const watch = query.get('watch');
  return watch !== null && !['false', '0'].includes(watch.toLowerCase());
}

/** The attributes of a request as kube-apiserver reads them; `rawPath` still %-encoded. */
export function requestAttributes(method: string, rawPath: string, rawQuery: string): RequestAttributes {
  let path = rawPath;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    // A path that does not decode is asked about as it came.
  }
  const nonResource: NonResourceAttributes = { resourceRequest: false, verb: method.toLowerCase(), path };
  let parts = segments(path);
  if (parts.length < 3 || !API_PREFIXES.has(parts[0]!)) return nonResource;
  let apiGroup = '';
  if (parts[0] === 'apis') {
    if (parts.length < 4) return nonResource;
    apiGroup = parts[1]!;
    parts = parts.slice(2);
  } else {
    parts = parts.slice(1);
  }
  const apiVersion = parts[0]!;
  parts = parts.slice(1);
  let verb = METHOD_VERBS[method] ?? '';
  if (SPECIAL_VERBS.has(parts[0]!) && parts.length >= 2) {
    verb = parts[0]!;
    parts = parts.slice(1);
  }
  let namespace = '';
  if (parts[0] === 'namespaces' && parts.length > 1) {
    namespace = parts[1]!;
    if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2]!)) parts = parts.slice(2);
  }
  const resource = parts[0] ?? '';
  let name = parts[1] ?? '';
  const subresource = parts.length >= 3 && verb !== 'proxy' ? parts[2]! : '';
  if (name === '' && verb === 'get') {
    const query = new URLSearchParams(rawQuery);
    verb = isWatch(query) ? 'watch' : 'list';
    name = selectedName(query.get('fieldSelector'));
  }
  if (name === '' && verb === 'delete') verb = 'deletecollection';
  return { resourceRequest: true, verb, apiGroup, apiVersion, resource, subresource, name, namespace };
}
