// The slice of the Kubernetes object model every part of Controller Lab shares. Objects stay plain
// JSON (what the API server sends); only the fields we reason about are typed.

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
  managedFields?: unknown[];
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

export interface KubeList<T extends KubeObject = KubeObject> {
  apiVersion?: string;
  kind?: string;
  metadata: ListMeta;
  items: T[];
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** One line of a watch stream. For ERROR, `object` is a Status. */
export interface WatchEvent<T extends KubeObject = KubeObject> {
  type: WatchEventType;
  object: T;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: { reason?: string; message?: string; field?: string }[];
  retryAfterSeconds?: number;
}

/** metav1.Status: the body of every API error, and the object of an ERROR watch event. */
export interface Status {
  apiVersion: 'v1';
  kind: 'Status';
  metadata: ListMeta;
  status: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

/** Group/version/resource: how the API addresses a collection. `group` is '' for the core group. */
export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

/** What discovery says about a resource. */
export interface ApiResource extends GroupVersionResource {
  kind: string;
  namespaced: boolean;
  shortNames: string[];
  singularName: string;
  verbs: string[];
}

/** The initial-events-end annotation a streaming list puts on its closing bookmark. */
export const INITIAL_EVENTS_END_ANNOTATION = 'k8s.io/initial-events-end';

export function apiVersionOf(gvr: Pick<GroupVersionResource, 'group' | 'version'>): string {
  return gvr.group === '' ? gvr.version : `${gvr.group}/${gvr.version}`;
}

export function isStatus(obj: unknown): obj is Status {
  return typeof obj === 'object' && obj !== null && (obj as { kind?: unknown }).kind === 'Status';
}

/** `configmaps`, `deployments.apps`: a resource qualified by its group, as kubectl accepts it and the API server's messages name it. */
export function qualifiedResource(r: Pick<GroupVersionResource, 'group' | 'resource'>): string {
  return r.group ? `${r.resource}.${r.group}` : r.resource;
}
