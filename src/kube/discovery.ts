import type { ApiResource } from '../shared/k8s.ts';
import { ApiError } from '../shared/apiError.ts';
import { jsonRequest } from './request.ts';
import type { Transport } from './transport.ts';

// Discovery: which resources the server serves. Asks for the aggregated form (one answer for all
// groups, Kubernetes ≥ 1.26) and falls back to the legacy walk (/api, /apis, then one request per
// group/version) when the server answers plain JSON. Both become the same ApiResource list.

export interface ApiGroupInfo {
  /** '' for the core group. */
  name: string;
  /** Versions the server serves, preferred first. */
  versions: string[];
  preferredVersion: string;
}

export interface DiscoveryResult {
  /** Groups in the server's priority order (core first). */
  groups: ApiGroupInfo[];
  /** Every top-level resource of every served version (subresources left out), in group order. */
  resources: ApiResource[];
  /** Group versions whose resource list failed (e.g. an unavailable aggregated API); the rest still counts. */
  failed: { groupVersion: string; error: string }[];
}

// Accept header kubectl sends (see reference/kubectl-requests.md), with v2 first.
const AGGREGATED_ACCEPT =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,' +
  'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';

interface AggregatedResource {
  resource: string;
  responseKind?: { kind?: string };
  scope?: 'Namespaced' | 'Cluster';
  singularResource?: string;
  verbs?: string[];
  shortNames?: string[];
}
interface AggregatedGroup {
  metadata?: { name?: string };
  versions?: { version: string; resources?: AggregatedResource[] }[];
}
interface LegacyResource {
  name: string;
  singularName?: string;
  namespaced?: boolean;
  kind?: string;
  verbs?: string[];
  shortNames?: string[];
}
type RootAnswer =
  | { kind: 'APIGroupDiscoveryList'; items?: AggregatedGroup[] }
  | { kind: 'APIVersions'; versions?: string[] }
  | { kind: 'APIGroupList'; groups?: { name: string; versions?: { version: string }[]; preferredVersion?: { version: string } }[] };

export async function discover(transport: Transport, signal?: AbortSignal): Promise<DiscoveryResult> {
  const [core, apis] = await Promise.all(['/api', '/apis'].map((p) => jsonRequest<RootAnswer>(transport, p, { headers: { Accept: AGGREGATED_ACCEPT }, signal })));
  const result: DiscoveryResult = { groups: [], resources: [], failed: [] };
  const legacyVersions: { group: string; version: string }[] = [];
  for (const answer of [core, apis]) {
    if (answer?.kind === 'APIGroupDiscoveryList') addAggregated(result, answer.items ?? []);
    else if (answer?.kind === 'APIVersions') {
      const versions = answer.versions ?? [];
      result.groups.push({ name: '', versions, preferredVersion: versions[0] ?? 'v1' });
      for (const version of versions) legacyVersions.push({ group: '', version });
    } else if (answer?.kind === 'APIGroupList') {
      for (const g of answer.groups ?? []) {
        const versions = (g.versions ?? []).map((v) => v.version);
        const preferred = g.preferredVersion?.version ?? versions[0] ?? '';
        result.groups.push({ name: g.name, versions: [preferred, ...versions.filter((v) => v !== preferred)], preferredVersion: preferred });
        for (const version of versions) legacyVersions.push({ group: g.name, version });
      }
    } else {
      throw new ApiError(0, `unexpected discovery answer (kind ${String((answer as unknown as { kind?: unknown })?.kind)})`, 'InvalidResponse');
    }
  }
  // The legacy walk: one resource list per group version, fetched in parallel, kept in group order.
  const lists = await Promise.all(
    legacyVersions.map(async ({ group, version }) => {
      const path = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
      try {
        const list = await jsonRequest<{ resources?: LegacyResource[] }>(transport, path, { signal });
        return { group, version, resources: list.resources ?? [] };
      } catch (err) {
        if (err instanceof ApiError) {
          result.failed.push({ groupVersion: group ? `${group}/${version}` : version, error: err.message });
          return { group, version, resources: [] };
        }
        throw err;
      }
    }),
  );
  for (const { group, version, resources } of lists) {
    for (const r of resources) {
      if (r.name.includes('/')) continue; // a subresource such as deployments/scale
      result.resources.push({
        group,
        version,
        resource: r.name,
        kind: r.kind ?? '',
        namespaced: r.namespaced === true,
        shortNames: r.shortNames ?? [],
        singularName: r.singularName || (r.kind ?? '').toLowerCase(),
        verbs: r.verbs ?? [],
      });
    }
  }
  return result;
}

function addAggregated(result: DiscoveryResult, items: AggregatedGroup[]): void {
  for (const g of items) {
    const name = g.metadata?.name ?? '';
    const versions = (g.versions ?? []).map((v) => v.version);
    result.groups.push({ name, versions, preferredVersion: versions[0] ?? '' });
    for (const v of g.versions ?? []) {
      for (const r of v.resources ?? []) {
        const kind = r.responseKind?.kind ?? '';
        result.resources.push({
          group: name,
          version: v.version,
          resource: r.resource,
          kind,
          namespaced: r.scope === 'Namespaced',
          shortNames: r.shortNames ?? [],
          singularName: r.singularResource || kind.toLowerCase(),
          verbs: r.verbs ?? [],
        });
      }
    }
  }
}
