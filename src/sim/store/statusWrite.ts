import type { KubeObject } from '../../shared/k8s.ts';
import { strategyFor } from '../kinds/index.ts';
import { hasZeroStatus, withZeroStatus } from '../kinds/zeroStatus.ts';
import type { ResourceInfo } from '../vocabulary/resourceInfo.ts';
import { mutableCopy } from './storedObject.ts';

// What a /status write stores, before the metadata no update may change (uid, creationTimestamp,
// generation…) is put back. kube-apiserver's status strategies differ on metadata: most built-in
// ones reset only spec, so the request's labels and annotations are kept (a controller records
// them beside the status it writes); some reset a few fields (a Deployment's labels, a Pod's
// ownerReferences: the kind's `statusKeepsMetadata`); a custom resource's keeps the stored object
// whole and takes only the request's status.

/** The stored object with the request's status, and the request's metadata as the kind's status strategy allows. */
export function statusWrite(info: ResourceInfo, stored: Readonly<KubeObject>, body: Readonly<KubeObject>): KubeObject {
  const next = mutableCopy(stored) as KubeObject;
  const given = (body as { status?: unknown }).status;
  const status = hasZeroStatus(info) ? withZeroStatus(info, given) : mutableCopy(given);
  if (status === undefined) delete (next as { status?: unknown }).status;
  else (next as { status?: unknown }).status = status;
  if (info.source === 'crd') return next;
  next.metadata = mutableCopy(body.metadata ?? {});
  for (const field of strategyFor(info).statusKeepsMetadata ?? []) {
    const kept = stored.metadata[field];
    if (kept === undefined) delete next.metadata[field];
    else (next.metadata as Record<string, unknown>)[field] = mutableCopy(kept);
  }
  return next;
}
