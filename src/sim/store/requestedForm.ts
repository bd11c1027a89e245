import type { KubeObject } from '../../shared/k8s.ts';
import type { ResourceInfo } from '../vocabulary/resourceInfo.ts';
import { mutableCopy } from './storedObject.ts';

// kube-apiserver's field manager records an update from the object the request made, before the
// kind's strategy puts back what the write may not change: a custom resource's /status write keeps
// the stored metadata (its labels, say) yet the writer is recorded as owning the metadata it sent;
// a patch that moves a deleting object's deletionTimestamp is undone yet recorded. This is that
// object, where it differs from the one stored; undefined where it does not.

/** The object the field manager compares with the stored one for an update, when it is not `next`. */
export function requestedForm(
  info: ResourceInfo, subresource: string | undefined, stored: Readonly<KubeObject>, request: Readonly<KubeObject>, next: KubeObject, sentDeletionTimestamp: string | undefined,
): KubeObject | undefined {
  if (subresource === 'status' && info.source === 'crd') {
    // The status strategy's reset fields are only `spec`: everything else sent is recorded.
    const form = { ...mutableCopy(request) } as KubeObject & { spec?: unknown; status?: unknown };
    const spec = (stored as { spec?: unknown }).spec;
    if (spec === undefined) delete form.spec;
    else form.spec = spec;
    // The status as stored: what the request sent, decoded as the store decodes it.
    const status = (next as { status?: unknown }).status;
    if (status === undefined) delete form.status;
    else form.status = status;
    return form;
  }
  const sent = sentDeletionTimestamp;
  const kept = stored.metadata.deletionTimestamp;
  if (!kept || sent === kept) return undefined;
  const form = { ...next, metadata: { ...next.metadata } } as KubeObject;
  if (sent === undefined) delete form.metadata.deletionTimestamp;
  else form.metadata.deletionTimestamp = sent;
  return form;
}
