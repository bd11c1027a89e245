// Turns a request path into what it addresses, with kube-apiserver's RequestInfo rules: `/api/v1/…`
// is the core group, `/apis/{g}/{v}/…` the others; `namespaces/{ns}/{resource}` scopes a namespaced
// resource, while `namespaces/{ns}` (and its `status` / `finalize`) is the namespace object itself.

export type HealthEndpoint = 'healthz' | 'livez' | 'readyz';

export type RequestTarget =
  | { kind: 'coreRoot' } // /api
  | { kind: 'groupsRoot' } // /apis
  | { kind: 'group'; group: string } // /apis/{g}
  | { kind: 'groupVersion'; group: string; version: string } // /api/v1, /apis/{g}/{v}
  | ResourceTarget
  | { kind: 'version' }
  | { kind: 'metrics' }
  | { kind: 'health'; endpoint: HealthEndpoint; check: string }
  | { kind: 'openapi'; path: string }
  | { kind: 'admin'; path: string[] }
  | { kind: 'unknown' };

export interface ResourceTarget {
  kind: 'resource';
  group: string;
  version: string;
  resource: string;
  /** '' when the path carries no namespace (cluster-scoped, or across all namespaces). */
  namespace: string;
  /** '' for a collection. */
  name: string;
  /** '' when none. */
  subresource: string;
  /** Set for the deprecated `/watch/` path prefix (`/api/v1/watch/namespaces/ns/pods`). */
  watchPrefix?: true;
}

export const ADMIN_PREFIX = 'controller-lab';

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

function decodeSegments(path: string): string[] | undefined {
  const raw = path.split('/');
  const out: string[] = [];
  for (const s of raw) {
    if (s === '') continue;
    if (s.includes('%')) {
      try {
        out.push(decodeURIComponent(s));
      } catch {
        return undefined;
      }
    } else {
      out.push(s);
    }
  }
  return out;
}

function resourceTarget(group: string, version: string, rest: string[]): RequestTarget {
  if (rest[0] === 'watch') {
    const target = resourceTarget(group, version, rest.slice(1));
    return target.kind === 'resource' && target.subresource === '' ? { ...target, watchPrefix: true } : { kind: 'unknown' };
  }
  let namespace = '';
  let parts = rest;
  if (parts[0] === 'namespaces' && parts.length > 1) {
    namespace = parts[1]!;
    if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2]!)) {
      parts = parts.slice(2);
    } else {
      // The namespace object itself: /namespaces/{name}[/status|/finalize].
      if (parts.length > 3) return { kind: 'unknown' };
      return { kind: 'resource', group, version, resource: 'namespaces', namespace: '', name: namespace, subresource: parts[2] ?? '' };
    }
  }
  if (parts.length === 0 || parts.length > 3) return { kind: 'unknown' };
  return { kind: 'resource', group, version, resource: parts[0]!, namespace, name: parts[1] ?? '', subresource: parts[2] ?? '' };
}

export function parseRequestPath(path: string): RequestTarget {
  const seg = decodeSegments(path);
  if (!seg || seg.length === 0) return { kind: 'unknown' };
  const [first] = seg;
  switch (first) {
    case 'api':
      if (seg.length === 1) return { kind: 'coreRoot' };
      if (seg.length === 2) return { kind: 'groupVersion', group: '', version: seg[1]! };
      return resourceTarget('', seg[1]!, seg.slice(2));
    case 'apis':
      if (seg.length === 1) return { kind: 'groupsRoot' };
      if (seg.length === 2) return { kind: 'group', group: seg[1]! };
      if (seg.length === 3) return { kind: 'groupVersion', group: seg[1]!, version: seg[2]! };
      return resourceTarget(seg[1]!, seg[2]!, seg.slice(3));
    case 'version':
      return seg.length === 1 ? { kind: 'version' } : { kind: 'unknown' };
    case 'metrics':
      return seg.length === 1 ? { kind: 'metrics' } : { kind: 'unknown' };
    case 'healthz':
    case 'livez':
    case 'readyz':
      return { kind: 'health', endpoint: first, check: seg.slice(1).join('/') };
    case 'openapi':
      return { kind: 'openapi', path: seg.slice(1).join('/') };
    case ADMIN_PREFIX:
      return seg[1] === 'admin' ? { kind: 'admin', path: seg.slice(2) } : { kind: 'unknown' };
    default:
      return { kind: 'unknown' };
  }
}

/** Splits `path?query` without allocating a URL object (hot path). */
export function splitUrl(url: string): { path: string; query: string } {
  const q = url.indexOf('?');
  return q < 0 ? { path: url, query: '' } : { path: url.slice(0, q), query: url.slice(q + 1) };
}
