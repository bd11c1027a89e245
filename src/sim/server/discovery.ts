// Discovery documents rendered from the resource registry, in the exact shapes kube-apiserver answers
// (reference/discovery): the classic APIVersions / APIGroupList / APIGroup / APIResourceList, and the
// aggregated APIGroupDiscoveryList (apidiscovery.k8s.io v2 and v2beta1) that kubectl asks for first —
// one request instead of one per group version. Rendered JSON is cached until a CRD changes the registry.
import type { GroupInfo, ResourceInfo, ResourceRegistry } from '../vocabulary/resourceInfo.ts';
import type { DiscoveryRendering } from './mediaTypes.ts';
import { pageNotFound, pathNotFound } from './status.ts';

export const AGGREGATED_CONTENT_TYPE = {
  'aggregated-v2': 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
  'aggregated-v2beta1': 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList',
} as const;

interface ApiResourceEntry {
  name: string;
  singularName: string;
  namespaced: boolean;
  group?: string;
  version?: string;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  storageVersionHash?: string;
}

function resourceEntries(resources: ResourceInfo[]): ApiResourceEntry[] {
  const entries: ApiResourceEntry[] = [];
  for (const r of resources) {
    const entry: ApiResourceEntry = { name: r.resource, singularName: r.singularName, namespaced: r.namespaced, kind: r.kind, verbs: [...r.verbs].sort() };
    if (r.shortNames.length > 0) entry.shortNames = r.shortNames;
    if (r.categories.length > 0) entry.categories = r.categories;
    if (r.storageVersionHash) entry.storageVersionHash = r.storageVersionHash;
    entries.push(entry);
    for (const s of r.subresources) {
      const sub: ApiResourceEntry = { name: `${r.resource}/${s.name}`, singularName: '', namespaced: r.namespaced, kind: s.kind, verbs: [...s.verbs].sort() };
      if (s.group !== undefined) sub.group = s.group;
      if (s.version !== undefined) sub.version = s.version;
      entries.push(sub);
    }
  }
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function groupVersionEntry(group: string, version: string) {
  return { groupVersion: `${group}/${version}`, version };
}

function apiGroup(g: GroupInfo) {
  return {
    name: g.name,
    versions: g.versions.map((v) => groupVersionEntry(g.name, v)),
    preferredVersion: groupVersionEntry(g.name, g.preferredVersion),
  };
}

function aggregatedResource(r: ResourceInfo) {
  const entry: Record<string, unknown> = {
    resource: r.resource,
    responseKind: { group: '', version: '', kind: r.kind },
    scope: r.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: r.singularName,
    verbs: [...r.verbs].sort(),
  };
  if (r.shortNames.length > 0) entry['shortNames'] = r.shortNames;
  if (r.categories.length > 0) entry['categories'] = r.categories;
  if (r.subresources.length > 0) {
    entry['subresources'] = r.subresources.map((s) => ({
      subresource: s.name,
      responseKind: { group: s.group ?? '', version: s.version ?? '', kind: s.kind },
      verbs: [...s.verbs].sort(),
    }));
  }
  return entry;
}

function byName<T extends { resource: string }>(a: T, b: T): number {
  return a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0;
}

/** Cached discovery answers for one registry. `serverAddress` is host:port for APIVersions. */
export class DiscoveryDocuments {
  private readonly cache = new Map<string, string>();
  private readonly unsubscribe: () => void;
  private readonly registry: ResourceRegistry;
  private readonly serverAddress: () => string;

  /** `serverAddress` is read when `/api` is first rendered (the port is known only after listen). */
  constructor(registry: ResourceRegistry, serverAddress: () => string) {
    this.registry = registry;
    this.serverAddress = serverAddress;
    this.unsubscribe = registry.onDidChange(() => this.cache.clear());
  }

  dispose(): void {
    this.unsubscribe();
  }

  private cached(key: string, render: () => unknown): string {
    let json = this.cache.get(key);
    if (json === undefined) {
      json = JSON.stringify(render());
      this.cache.set(key, json);
    }
    return json;
  }

  /** `/api`: the legacy core group's versions, or the aggregated document for the core group. */
  coreRoot(rendering: DiscoveryRendering): string {
    if (rendering !== 'legacy') return this.cached(`api:${rendering}`, () => this.aggregated(rendering, [{ name: '', versions: ['v1'], preferredVersion: 'v1' }]));
    return this.cached('api', () => ({
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: this.serverAddress() }],
    }));
  }

  /** `/apis`: every non-core group. */
  groupsRoot(rendering: DiscoveryRendering): string {
    if (rendering !== 'legacy') return this.cached(`apis:${rendering}`, () => this.aggregated(rendering, this.registry.groups()));
    return this.cached('apis', () => ({ kind: 'APIGroupList', apiVersion: 'v1', groups: this.registry.groups().map(apiGroup) }));
  }

  /** `/apis/{group}`; 404 when no version of it is served. */
  group(name: string): string {
    const g = this.registry.groups().find((x) => x.name === name);
    if (!g) throw pageNotFound();
    return this.cached(`g:${name}`, () => ({ kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(g) }));
  }

  /** `/api/v1` or `/apis/{group}/{version}`; 404 when nothing is served there. */
  groupVersion(group: string, version: string): string {
    const resources = this.registry.inGroupVersion(group, version);
    if (resources.length === 0) throw group === '' || this.registry.groups().some((g) => g.name === group) ? pathNotFound() : pageNotFound();
    return this.cached(`gv:${group}/${version}`, () =>
      group === ''
        ? { kind: 'APIResourceList', groupVersion: version, resources: resourceEntries(resources) }
        : { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: `${group}/${version}`, resources: resourceEntries(resources) },
    );
  }

  private aggregated(rendering: Exclude<DiscoveryRendering, 'legacy'>, groups: GroupInfo[]) {
    return {
      kind: 'APIGroupDiscoveryList',
      apiVersion: rendering === 'aggregated-v2' ? 'apidiscovery.k8s.io/v2' : 'apidiscovery.k8s.io/v2beta1',
      metadata: {},
      items: groups.map((g) => ({
        metadata: { name: g.name, creationTimestamp: null },
        // Preferred version first, as the real server orders them.
        versions: [g.preferredVersion, ...g.versions.filter((v) => v !== g.preferredVersion)].map((version) => ({
          version,
          resources: this.registry.inGroupVersion(g.name, version).sort(byName).map(aggregatedResource),
          freshness: 'Current',
        })),
      })),
    };
  }
}
