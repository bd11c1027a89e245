import type { KubeObject, ObjectMeta } from '../../shared/k8s.ts';
import type { Cause } from '../../shared/apiErrors.ts';
import type { UserInfo } from '../vocabulary/userInfo.ts';

// What is particular to one kind on the write path, as a registry strategy is in kube-apiserver
// (pkg/registry/<group>/<kind>/strategy.go): conversion and defaulting of a request's object,
// validation with the API server's causes, and when `metadata.generation` moves. The store
// (src/sim/store/apiStore.ts) stays generic and asks the kind's strategy.

/** What a strategy may read of the store: the objects of a resource as stored now (a Service's allocated cluster IPs). */
export interface StoredObjects {
  list(group: string, resource: string): Iterable<Readonly<KubeObject>>;
}

export interface KindStrategy {
  /** Conversion from the request's form to the stored one (e.g. a Secret's stringData into data). Create and update. */
  normalize?(obj: KubeObject): void;
  /** The defaults the API server fills in on every write (idempotent: an already-defaulted object is left as it is). */
  defaults?(obj: KubeObject): void;
  /** What a create alone fills in, once the object has its uid and the status the request sent is gone (a Job's generated selector, a Pod's Pending phase). */
  prepareForCreate?(obj: KubeObject, stored: StoredObjects, requester: UserInfo): void;
  /** What an update keeps from the stored object (a Service's allocated cluster IP the request leaves out; a CSR's spec, whatever the request says). */
  prepareForUpdate?(before: Readonly<KubeObject>, next: KubeObject): void;
  /** Causes for a 422, for the object as it would be stored. */
  validate?(obj: Readonly<KubeObject>): Cause[];
  /** Causes for a 422 that only a create meets (rules relaxed later so old objects stay updatable). */
  validateCreate?(obj: Readonly<KubeObject>): Cause[];
  /** Causes for a 422 that compare with the stored object (immutable fields). */
  validateUpdate?(before: Readonly<KubeObject>, after: Readonly<KubeObject>): Cause[];
  /**
   * The metadata a /status write keeps as stored, where the kind's status strategy resets it (a
   * Deployment's labels, a Pod's ownerReferences); the rest of metadata comes from the request.
   */
  statusKeepsMetadata?: readonly (keyof ObjectMeta)[];
  /** What a /status write changes besides taking the request's status (a CSR keeps its Approved and Denied conditions). */
  prepareForStatusUpdate?(next: KubeObject, body: Readonly<KubeObject>, before: Readonly<KubeObject>, now: string): void;
  /** Causes for a 422 of a /status write, which the main resource's rules do not check (a CSR's conditions and certificate). */
  validateStatusUpdate?(before: Readonly<KubeObject>, after: Readonly<KubeObject>): Cause[];
  /**
   * CheckGracefulDelete: the grace period a delete of this object takes (a Pod's), or undefined for
   * kinds deleted at once. A delete with a zero period still answers the object marked for deletion.
   */
  deletionGracePeriod?(obj: Readonly<KubeObject>, requested: number | undefined): number | undefined;
  /** Whether an update moves `metadata.generation` (default: anything but metadata and status changed). */
  generationChanged?(before: Readonly<KubeObject>, after: Readonly<KubeObject>): boolean;
}
