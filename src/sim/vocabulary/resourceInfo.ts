import type { ApiResource, GroupVersionResource } from '../../shared/k8s.ts';
import { qualifiedResource } from '../../shared/k8s.ts';

// What the simulated cluster serves: one ResourceInfo per (group, version, resource). Discovery
// (/api, /apis, /apis/<g>/<v>) is rendered from these records alone, so they carry every field
// a v1.28 kube-apiserver's discovery documents carry.

/** A subresource as discovery lists it (`deployments/scale`, `pods/status`). */
export interface SubresourceInfo {
  /** 'status' | 'scale' are implemented by the store; others are listed only. */
  name: string;
  kind: string;
  /** Set when the subresource speaks another group/version (scale: autoscaling/v1). */
  group?: string;
  version?: string;
  verbs: string[];
}

/** Where `/scale` finds replicas in the parent object (paths of dotted field names). */
export interface ScaleMapping {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
  /** The selector there is a plain map of labels (a ReplicationController's), not a LabelSelector. */
  selectorIsLabelSet?: true;
}

/** How metadata.name is validated: DNS-1123 subdomain (most kinds), DNS-1123 label (namespaces), DNS-1035 label (services: starts with a letter) or path segment (RBAC). */
export type NameRule = 'subdomain' | 'label' | 'dns1035' | 'pathSegment';

export interface ResourceInfo extends ApiResource {
  /** Discovery categories, e.g. ['all'] for pods and deployments. */
  categories: string[];
  subresources: SubresourceInfo[];
  /** Every version served for this group/resource, preferred (storage) version first. */
  servedVersions: string[];
  /** The version objects are stored in; requests in other versions only get apiVersion rewritten. */
  storageVersion: string;
  nameRule: NameRule;
  /** Present when `/scale` is served. */
  scale?: ScaleMapping;
  /** 'crd' when a CustomResourceDefinition made it served. */
  source: 'builtin' | 'crd';
  /** storageVersionHash as discovery shows it (opaque; stable per group/resource). */
  storageVersionHash?: string;
  /**
   * Set for the create-only reviews (SelfSubjectAccessReview, SelfSubjectReview…): the server
   * answers them about the caller and stores nothing, so they have no table and no watch events.
   */
  virtual?: true;
}

/** The storage identity of a resource: versions share one storage (like etcd keys). */
export function storageKeyOf(gvr: Pick<GroupVersionResource, 'group' | 'resource'>): string {
  return qualifiedResource(gvr);
}

export function hasSubresource(info: ResourceInfo, name: string): boolean {
  return info.subresources.some((s) => s.name === name);
}

/** An API group as `/apis` shows it. */
export interface GroupInfo {
  name: string;
  /** Served versions, preferred first. */
  versions: string[];
  preferredVersion: string;
}

export type Unsubscribe = () => void;

/**
 * The kind registry: built-in kinds plus those CRDs add at run time. Lookups are cheap (maps).
 * `onDidChange` fires after a CRD makes a resource served or unserved, so discovery caches refresh.
 */
export interface ResourceRegistry {
  /** The resource served at group/version/resource (plural), or undefined (→ 404 at the HTTP layer). */
  lookup(gvr: GroupVersionResource): ResourceInfo | undefined;
  /** Like lookup, but throws ApiError 404 NotFound ("the server could not find the requested resource"). */
  require(gvr: GroupVersionResource): ResourceInfo;
  /** By apiVersion + kind (`apps/v1`, `Deployment`): how scenarios and the create path resolve objects. */
  byKind(apiVersion: string, kind: string): ResourceInfo | undefined;
  /** By plural, singular, short name or kind, case-insensitive (`deploy`, `deployments`, `Deployment`); first match, core group preferred. */
  resolveName(name: string): ResourceInfo | undefined;
  /** Every served (group, version, resource). */
  all(): ResourceInfo[];
  /** The resources served in one group/version (core: group ''), for `/api/v1` and `/apis/g/v`. */
  inGroupVersion(group: string, version: string): ResourceInfo[];
  /** Every non-core group, for `/apis`; the core group '' is not included (it is `/api`). */
  groups(): GroupInfo[];
  onDidChange(listener: () => void): Unsubscribe;
}
