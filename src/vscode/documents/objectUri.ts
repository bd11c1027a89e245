// Addresses of object documents under our own scheme:
import { splitKey } from '../../shared/keys.ts';
//   controller-lab:/<resource>/<namespace>/<name>.yaml?informer=<informer id>[&rv=<resourceVersion>]
// The path makes the tab read `name.yaml` and the breadcrumb show resource and namespace; the query
// names the informer (ids contain '/') and optionally a fixed version (no rv: the live object).

export const OBJECT_SCHEME = 'controller-lab';

export interface ObjectAddress {
  informerId: string;
  resource: string;
  key: string;
  resourceVersion?: string;
}

export function objectUriParts(address: ObjectAddress): { scheme: string; path: string; query: string } {
  const { namespace: keyNamespace, name } = splitKey(address.key);
  const namespace = keyNamespace || '_cluster';
  const query = new URLSearchParams({ informer: address.informerId, key: address.key });
  if (address.resourceVersion) query.set('rv', address.resourceVersion);
  return { scheme: OBJECT_SCHEME, path: `/${address.resource}/${namespace}/${name}.yaml`, query: query.toString() };
}

export function parseObjectUri(parts: { scheme: string; path: string; query: string }): ObjectAddress | undefined {
  if (parts.scheme !== OBJECT_SCHEME) return undefined;
  const query = new URLSearchParams(parts.query);
  const informerId = query.get('informer');
  const key = query.get('key');
  const resource = parts.path.split('/')[1];
  if (!informerId || !key || !resource) return undefined;
  const rv = query.get('rv');
  return { informerId, resource, key, ...(rv ? { resourceVersion: rv } : {}) };
}
