import type { CacheDelta, WriteRecord } from '../../runtime/index.ts';
import type { KubeObject } from '../../shared/k8s.ts';

// A delete's answer carries no resourceVersion, so it is matched to its cache event by the object
// it names: DELETED, or for an object with finalizers the MODIFIED that marks it deleted; and by
// its uid when both sides know it (a new object of the same name has another). Kinds are compared
// without case (the cache and the client may spell them apart).

/** `configmap default/app`: the object a delete or a DELETED event is about. */
export function objectIdentity(kind: string, key: string): string {
  return `${kind.toLowerCase()} ${key}`;
}

/** The object a write names, as a key (`namespace/name` or `name`). */
export function writeKey(write: Pick<WriteRecord, 'namespace' | 'name'>): string {
  return write.namespace ? `${write.namespace}/${write.name}` : write.name;
}

/** A successful delete of one named object, answered without a resourceVersion: its event is found by the object. */
export function isObjectDelete(write: WriteRecord): boolean {
  return write.verb === 'delete' && !write.resourceVersion && !write.error && write.name !== '';
}

/** The identity of a delete's object (see isObjectDelete). */
export function deleteIdentity(write: WriteRecord): string {
  return objectIdentity(write.kind, writeKey(write));
}

/** An event a delete can make: the object went, or is marked for deletion (its finalizers hold it). */
export function isDeletionEvent(delta: Pick<CacheDelta, 'type' | 'object'>): boolean {
  return delta.type === 'DELETED' || Boolean(delta.object?.metadata.deletionTimestamp);
}

/** Whether an event's object can be the one a delete named: the same uid, or one side does not know it. */
export function sameObject(write: Pick<WriteRecord, 'uid'>, uid: string | undefined): boolean {
  return !write.uid || !uid || write.uid === uid;
}

export function uidOf(object: KubeObject | undefined): string | undefined {
  return object?.metadata.uid;
}
