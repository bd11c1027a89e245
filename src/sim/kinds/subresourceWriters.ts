import type { KubeObject } from '../../shared/k8s.ts';
import { approveCertificateSigningRequest } from './certificateSigningRequest.ts';
import { bindPod } from './podBinding.ts';
import { finalizeNamespace } from './namespace.ts';

// Subresources that rewrite part of their parent in a way of their own (beside /status and
// /scale): given the stored object and the request's body, the object to store, or an ApiError.
// They check what they accept themselves; the main resource's update rules do not apply.

export type SubresourceWriter = (current: Readonly<KubeObject>, body: Readonly<KubeObject>, now: string) => KubeObject;

const WRITERS: Record<string, SubresourceWriter> = {
  '/pods/binding': bindPod,
  '/namespaces/finalize': finalizeNamespace,
  'certificates.k8s.io/certificatesigningrequests/approval': approveCertificateSigningRequest,
};

export function subresourceWriter(info: { group: string; resource: string }, subresource: string): SubresourceWriter | undefined {
  return WRITERS[`${info.group}/${info.resource}/${subresource}`];
}
