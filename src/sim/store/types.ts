import type { KubeObject, WatchEventType } from '../../shared/k8s.ts';
import type { ListOptions, WatchOptions } from '../../informer/index.ts';
import type { UserInfo } from '../vocabulary/userInfo.ts';
import type { FieldOrder, FieldValidation } from '../vocabulary/fieldValidation.ts';

// The public contract of the simulated cluster's store, as the HTTP layer (src/sim/server), the
// in-process ListerWatcher, scenarios and the views use it through SimCluster (src/sim/simCluster.ts).
//
// Conventions:
// - Every failure is an ApiError (src/shared/apiError.ts) carrying a metav1.Status whose `code`,
//   `reason`, `message` and `details` are what kube-apiserver would answer; map it to HTTP 1:1.
// - resourceVersions are numbers inside the store and decimal strings on the wire.
// - Objects handed out are deep-frozen and shared: never mutate them (copy with structuredClone).
// - Calls are synchronous; watch events are delivered asynchronously (microtask batches of at most
//   1000 events; a longer backlog continues after a setImmediate so I/O can drain), in order.

/** One stored version of an object. Immutable; its JSON is serialized at most once and shared. */
export interface StoredObject {
  /** Deep-frozen. apiVersion/kind are always set. */
  readonly object: Readonly<KubeObject>;
  /** metadata.resourceVersion as a number. */
  readonly resourceVersion: number;
  /** The object's JSON (no trailing newline), cached: write these bytes, do not re-stringify. */
  json(): string;
}

/** Who is asking: recorded by the client-insight registry (src/sim/store/clientInsight.ts). */
export interface ClientIdentity {
  /** The User-Agent header, or a name for in-process clients ('informer', 'scenario'). */
  userAgent: string;
  /** A stable id for the credential (e.g. a token hash or cert CN); '' when anonymous. */
  tokenId: string;
  /** Who the requests act as when that is not the server token's admin (a ServiceAccount token, impersonation). */
  user?: string;
}

export type { FieldValidation };

/**
 * Per-request context, handed down to every store write as its last argument (as kube-apiserver
 * passes its ctx): who writes, how the body decodes, dry run, admission. Everything is optional.
 */
export interface RequestContext {
  client?: ClientIdentity;
  /**
   * Who the request acts as: every HTTP request has one (the server token's admin, a service account
   * token's account, the impersonated user); in-process writes without one act as the admin.
   */
  user?: UserInfo;
  /** ?fieldManager=…: the manager managedFields record the write under (else the User-Agent's prefix). */
  fieldManager?: string;
  /** ?force=true on an apply: take over fields other managers own instead of a 409. */
  force?: boolean;
  /** ?dryRun=All: validate and answer as if written, change nothing. */
  dryRun?: boolean;
  fieldValidation?: FieldValidation;
  /** Filled by the write with what the answer's Warning headers say (unknown fields dropped). */
  warnings?: string[];
  /** Fields the request's JSON body named twice (JSON.parse kept the last): refused or warned about as unknown ones are. */
  duplicateFields?: readonly string[];
  /** An apply's YAML keys named twice in a map, as yaml.v2 words each (`line 9: key "foo" already set in map`). */
  repeatedYamlKeys?: readonly string[];
  /** With duplicateFields: where the body names each field (unknown and repeated ones are listed in the body's order). */
  fieldOrder?: FieldOrder;
  /** Set by admission (src/sim/admission) while it runs the write: where webhooks see and change the object. */
  admission?: AdmissionPoints;
  /** The call the write was made as (set by the cluster's write methods): what its write records say. */
  write?: WriteCall;
  /** Owners (uids) whose dependents this delete call is deleting first: a dependency circle ends when it comes back to one. */
  deletingFirst?: ReadonlySet<string>;
  /** On the work the API server does itself after a write (garbage collection, namespace cleanup): that write's context. */
  cause?: RequestContext;
}

/** The verbs of writes, as RBAC and admission name them. */
export type WriteVerb = 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

/** A write call as its request made it. */
export interface WriteCall {
  readonly verb: WriteVerb;
  readonly subresource?: Subresource;
  /** A patch's type: server-side apply is a patch of its own kind to whoever reads the write. */
  readonly patchType?: PatchType;
}

/**
 * The two points of a write where kube-apiserver runs admission. Both are synchronous: admission
 * calls its webhooks between dry-run passes of the same write and answers from what they said.
 */
export interface AdmissionPoints {
  /** The object decoded and defaulted, before the kind's rules run: answers the object to go on with (the same one when unchanged). */
  mutate(obj: KubeObject, old: Readonly<KubeObject> | undefined): KubeObject;
  /** The object as it is about to be stored (undefined for a delete), with the stored one it replaces. */
  validate(obj: Readonly<KubeObject> | undefined, old: Readonly<KubeObject> | undefined): void;
  /** The uid and creationTimestamp a created object gets: those the validating webhooks were shown. */
  readonly createdAs?: { uid: string; creationTimestamp: string };
}

/** What the store writes besides the main resource; 'approval', 'binding' and 'finalize' belong to single kinds (src/sim/kinds/subresourceWriters.ts). */
export type Subresource = 'status' | 'scale' | 'approval' | 'binding' | 'finalize';

export interface ListRequest extends ListOptions {
  /** '' or undefined: all namespaces (or a cluster-scoped resource). */
  namespace?: string;
}

/** One page of a list, at one resourceVersion. Items are sorted by key (namespace/name) like etcd. */
export interface ListResult {
  resourceVersion: number;
  items: StoredObject[];
  /** Opaque token for the next page; undefined on the last page. */
  continue?: string;
  /** Items after this page (set with `continue`, as the real server does). */
  remainingItemCount?: number;
  /** `ConfigMapList` etc., and the apiVersion the request used: what the list envelope needs. */
  kind: string;
  apiVersion: string;
  /**
   * Items go out without kind and apiVersion, as kube-apiserver lists built-in kinds (the list's
   * own kind says what they are); custom resources' items keep theirs.
   */
  bareItems?: boolean;
  /** The whole list as JSON, assembled from the items' cached JSON. */
  json(): string;
}

export interface WatchRequest extends WatchOptions {
  namespace?: string;
}

/** One watch event. `line()` is the JSON `{"type":…,"object":…}` (no newline), cached and shared. */
export interface SimWatchEvent {
  readonly type: WatchEventType;
  /** An object, a bookmark stub (kind/apiVersion/metadata.resourceVersion), or a Status for ERROR. */
  readonly object: Readonly<KubeObject>;
  line(): string;
}

/** An open watch of one user's, and how much it has still to send (see SimClusterApi.watchesOf). */
export interface UserWatch {
  id: number;
  /** `plural` or `plural.group`. */
  resource: string;
  /** '' for every namespace. */
  namespace: string;
  /** Events queued, withheld, delayed or held for coalescing: not yet sent. */
  undelivered: number;
  /** Events and bookmarks sent so far. */
  sent: number;
}

/** Why a watch ended. `stopped` is never reported (the caller stopped it). */
export type WatchCloseReason =
  | 'timeout' // timeoutSeconds elapsed: a clean end
  | 'dropped' // faults.dropWatches(): a clean end, as if the connection was closed
  | 'restart' // the cluster restarted: all watches end cleanly
  | 'expired' // after an ERROR 410 event
  | 'unserved' // the resource went away (its CRD was deleted)
  | 'slow'; // the client read too slowly: its buffer filled, so it was closed (as the cacher closes such watchers)

export interface WatchListener {
  /** Each event, in order. Must not throw; may call back into the cluster (delivery is not reentrant). */
  event(event: SimWatchEvent): void;
  /** Called once when the stream ends by itself (not after `stop`). */
  close(reason: WatchCloseReason): void;
}

export interface SimWatch {
  readonly id: number;
  /** Ends the watch: no event is delivered after `stop` returns, `close` is not called. */
  stop(): void;
  /**
   * Backpressure for slow consumers (e.g. when a socket's write returns false): events keep
   * queueing in order but none is delivered until `resume` (e.g. on 'drain').
   */
  pause(): void;
  resume(): void;
}

export interface DeleteOptions {
  /** Background (default): the owner goes, then its dependents. Foreground: dependents first. Orphan: dependents stay, unowned. */
  propagationPolicy?: 'Foreground' | 'Background' | 'Orphan';
  /** Ignored except that it is recorded in deletionGracePeriodSeconds (0 when unset). */
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
}

export interface DeleteResult {
  /** The object as deleted, or as it now stands with deletionTimestamp when finalizers hold it. */
  object: StoredObject;
  /** false: finalizers remain, the object still exists (HTTP 202 Accepted); true: gone (HTTP 200). */
  deleted: boolean;
}

export type PatchType = 'merge' | 'json' | 'strategic' | 'apply';

/** Content-Type → PatchType; undefined for an unsupported type (answer 415). */
export function patchTypeOf(contentType: string): PatchType | undefined {
  const ct = contentType.split(';')[0]?.trim().toLowerCase();
  switch (ct) {
    case 'application/merge-patch+json': return 'merge';
    case 'application/json-patch+json': return 'json';
    case 'application/strategic-merge-patch+json': return 'strategic';
    case 'application/apply-patch+yaml': return 'apply';
    default: return undefined;
  }
}

/**
 * A write, as `SimCluster.onWrite` reports it: every commit, and (to listeners that ask) every write
 * that stored nothing. Reported synchronously, right after the commit and before the call returns,
 * so before the HTTP answer is sent and before any watcher is sent the event (see writeRecords.ts).
 */
export interface WriteRecord {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  group: string;
  resource: string;
  /** '' for a cluster-scoped object. */
  namespace: string;
  name: string;
  /** namespace/name or name. */
  key: string;
  /** The object as stored now (for DELETED, its last state carrying the delete's resourceVersion). */
  object: StoredObject;
  /** The version before this change (undefined for ADDED; the same object when nothing changed). */
  previous?: StoredObject;
  /** The resourceVersion the write left: the commit's, or the unchanged object's. */
  resourceVersion: number;
  /** False for a write that stored nothing (an update or patch that left the object as it was, a delete of an object already being deleted). */
  changed: boolean;
  /** The call's verb and subresource; for follow-up work, those of the write that caused it. Unset for commits no write call made. */
  verb?: WriteVerb;
  subresource?: Subresource;
  /** A patch's type (`apply`: server-side apply). */
  patchType?: PatchType;
  /** Who made the write (the impersonated user when impersonating); for follow-up work, who made the write that caused it. Unset for in-process writes made as nobody in particular. */
  user?: string;
  /** Set on the API server's own work after a client's write (garbage collection, namespace cleanup). */
  followUp?: true;
  client?: ClientIdentity;
}

/** One client's activity, as the views show it. */
export interface ClientWatchInfo {
  id: number;
  resource: string;
  namespace: string;
  labelSelector: string;
  fieldSelector: string;
  startedAt: number;
  /** The last resourceVersion sent (an event's or a bookmark's). */
  lastResourceVersion: string;
  events: number;
  bookmarks: number;
  open: boolean;
  closeReason?: string;
}

export interface ClientInfo {
  /** `${userAgent}|${tokenId}`, then `|${user}` when there is one. */
  id: string;
  userAgent: string;
  tokenId: string;
  /** Who its requests act as, when not the admin (see ClientIdentity.user). */
  user?: string;
  firstSeen: number;
  lastSeen: number;
  lists: number;
  /** The last few list calls: resource, RV asked, RV answered, items. */
  recentLists: { resource: string; at: number; resourceVersion: string; items: number; limit?: number }[];
  watches: ClientWatchInfo[];
  writes: number;
  recentWrites: { at: number; verb: string; resource: string; key: string; resourceVersion: string; code: number }[];
  errors: number;
}

/**
 * Per-client insight. The store records lists, watches and writes automatically for requests that
 * carry `RequestContext.client`; the HTTP layer may also record failures it answers itself.
 */
export interface ClientInsight {
  clients(): ClientInfo[];
  onDidChange(listener: () => void): () => void;
  /** For answers the store never saw (429/500 faults, auth failures, 404 discovery misses). */
  recordError(client: ClientIdentity, verb: string, resource: string, code: number): void;
}
