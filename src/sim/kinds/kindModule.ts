import { createHash } from 'node:crypto';
import type { NameRule, ResourceInfo, ScaleMapping, SubresourceInfo } from '../vocabulary/resourceInfo.ts';
import type { TableColumn } from '../vocabulary/tableCells.ts';
import type { KindStrategy } from './kindStrategy.ts';
import type { KubeObject } from '../../shared/k8s.ts';

// Everything that makes one built-in kind, in one place, as kube-apiserver's registry keeps a
// storage and a strategy per resource: what discovery says about it, its write rules, its status
// as Go prints an empty one, whether it keeps metadata.generation, and the columns `kubectl get`
// shows. The store, discovery, tables and the protobuf codec read these and know no kind by name.
// The protobuf message is the generated table's row for the kind's `apiVersion/kind`
// (scripts/generate-protobuf-schemas.mjs reads the registered kinds to write it).

/** What discovery shows for a kind (the v1.28 kube-apiserver's /api and /apis documents). */
export interface KindApi {
  group: string;
  version: string;
  /** The plural, as in URLs. */
  resource: string;
  kind: string;
  /** Default true. */
  namespaced?: boolean;
  shortNames?: string[];
  categories?: string[];
  /** Serves /status. */
  status?: boolean;
  /** Serves /scale (autoscaling/v1 Scale over spec.replicas). */
  scale?: boolean;
  /** 'labels' when spec.selector is a map of labels (ReplicationControllers), not a LabelSelector. */
  scaleSelector?: 'labels';
  /** Default: every verb (create-only when virtual). */
  verbs?: string[];
  /** Default 'subdomain'. */
  nameRule?: NameRule;
  /** When the server's hash is not derived from this group/version/kind (it was first stored in another). */
  storageVersionHash?: string;
  /**
   * Another version of a kind registered before it, whose objects this one converts to and from
   * (src/sim/server/convertedVersionHandler.ts): the version objects are stored in.
   */
  storedAs?: string;
  /** Create-only and never stored (the reviews): discovery shows verbs [create] and no storageVersionHash. */
  virtual?: true;
  /** Subresources besides status and scale (pods/eviction, serviceaccounts/token…). */
  more?: SubresourceInfo[];
}

export interface KindModule {
  api: KindApi;
  /** Write rules: defaults, validation, immutability, generation (none: the API server's generic ones). */
  strategy?: KindStrategy;
  /** `kubectl get` columns as the kind's printer makes them (none: NAME and AGE). */
  columns?: TableColumn[];
  /** Whether metadata.generation is kept (the kind's strategy sets it in kube-apiserver). */
  generation?: boolean;
  /** The status a Go struct prints before anyone wrote one (fields without omitempty, as zeros); none for kinds without a struct status. */
  zeroStatus?: () => Record<string, unknown>;
  /** false when no protobuf schema is generated for the kind (CRDs: their .proto is in apiextensions-apiserver, which the generator does not read). */
  protobuf?: false;
  /** 'kept' when a create keeps the status it sends (a kubelet registers its Node with one); else a create starts from the zero status. */
  statusOnCreate?: 'kept';
  /**
   * For a kind the API server makes up on each read and never stores (ComponentStatuses, probed
   * when asked): its objects now. Such a kind is `virtual` and takes only get and list.
   */
  madeUp?: () => KubeObject[];
  /** The Warning every request to the kind is answered with (a deprecated kind's). */
  warning?: string;
}

export const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
export const STATUS_VERBS = ['get', 'patch', 'update'];
export const CREATE_ONLY = ['create'];

const REPLICAS_SCALE: ScaleMapping = { specReplicasPath: 'spec.replicas', statusReplicasPath: 'status.replicas', labelSelectorPath: 'spec.selector' };

/** base64(sha256("group/version/kind")[:8]), the way kube-apiserver derives storageVersionHash. */
export function storageVersionHash(group: string, version: string, kind: string): string {
  return createHash('sha256').update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString('base64');
}

/** The registry's record of a kind, from its discovery entry. */
export function resourceInfoOf(api: KindApi): ResourceInfo {
  const subresources: SubresourceInfo[] = [];
  if (api.scale) subresources.push({ name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: STATUS_VERBS });
  if (api.status) subresources.push({ name: 'status', kind: api.kind, verbs: STATUS_VERBS });
  subresources.push(...(api.more ?? []));
  subresources.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const info: ResourceInfo = {
    group: api.group,
    version: api.version,
    resource: api.resource,
    kind: api.kind,
    namespaced: api.namespaced ?? true,
    shortNames: api.shortNames ?? [],
    singularName: api.kind.toLowerCase(),
    verbs: api.verbs ?? (api.virtual ? CREATE_ONLY : ALL_VERBS),
    categories: api.categories ?? [],
    subresources,
    servedVersions: api.storedAs ? [api.storedAs, api.version] : [api.version],
    storageVersion: api.storedAs ?? api.version,
    nameRule: api.nameRule ?? 'subdomain',
    source: 'builtin',
  };
  if (api.virtual) info.virtual = true;
  else info.storageVersionHash = api.storageVersionHash ?? storageVersionHash(api.group, api.storedAs ?? api.version, api.kind);
  if (api.scale) info.scale = api.scaleSelector === 'labels' ? { ...REPLICAS_SCALE, selectorIsLabelSet: true } : REPLICAS_SCALE;
  return info;
}
