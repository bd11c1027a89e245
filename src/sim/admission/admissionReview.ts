import { randomUUID } from 'node:crypto';
import type { KubeObject, Status } from '../../shared/k8s.ts';
import type { AdmissionAttributes, Invocation } from './admissionAttributes.ts';
import { userInfoJson, type UserInfo } from '../vocabulary/userInfo.ts';

// The AdmissionReview a webhook is sent (admission.k8s.io/v1, or v1beta1 when that is the only
// version it lists) and the checks kube-apiserver makes on the one it answers.

/** Who the sim's callers are: the token's user (the sim authenticates one identity). */

export interface ReviewRequest {
  uid: string;
  apiVersion: string;
  body: Record<string, unknown>;
}

export interface ReviewResponse {
  allowed: boolean;
  /** The JSON patch's bytes (mutating webhooks only). */
  patch: Buffer | undefined;
  result: Partial<Status> | undefined;
  warnings: string[];
}

/** Why a webhook's answer cannot be used (the caller reports it as a failure to call the webhook). */
export class InvalidReview extends Error {}

const REVIEW_VERSIONS = ['v1', 'v1beta1'];

/** The AdmissionReview version to send, or undefined when the webhook lists none the API server knows. */
export function reviewVersionFor(versions: readonly string[]): string | undefined {
  return versions.find((v) => REVIEW_VERSIONS.includes(v));
}

/** The object as the webhook's version shows it (stored objects only differ in apiVersion). */
function inVersion(obj: Readonly<KubeObject> | undefined, group: string, version: string): unknown {
  if (!obj) return null;
  return { ...obj, apiVersion: group ? `${group}/${version}` : version };
}

export interface ReviewOptions {
  /** CreateOptions, UpdateOptions or DeleteOptions, as the request carried them. */
  options: Record<string, unknown>;
  dryRun: boolean;
  user: UserInfo;
}

export function reviewRequest(invocation: Invocation, a: AdmissionAttributes, reviewVersion: string, o: ReviewOptions): ReviewRequest {
  const uid = randomUUID();
  const { group, resource, subresource, kind } = a;
  const version = invocation.version;
  const request: Record<string, unknown> = {
    uid,
    kind: { group, version, kind },
    resource: { group, version, resource },
    ...(subresource ? { subResource: subresource } : {}),
    requestKind: { group, version: a.version, kind },
    requestResource: { group, version: a.version, resource },
    ...(subresource ? { requestSubResource: subresource } : {}),
    ...(a.name ? { name: a.name } : {}),
    ...(a.namespace ? { namespace: a.namespace } : {}),
    operation: a.operation,
    userInfo: userInfoJson(o.user),
    object: inVersion(a.object, group, version),
    oldObject: inVersion(a.oldObject, group, version),
    dryRun: o.dryRun,
    options: o.options,
  };
  const apiVersion = `admission.k8s.io/${reviewVersion}`;
  return { uid, apiVersion, body: { kind: 'AdmissionReview', apiVersion, request } };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The webhook's answer, checked as kube-apiserver checks it; throws InvalidReview. */
export function reviewResponse(request: ReviewRequest, answer: unknown, mutating: boolean): ReviewResponse {
  if (!isObject(answer)) throw new InvalidReview('the answer is not an AdmissionReview object');
  const response = answer['response'];
  if (!isObject(response)) throw new InvalidReview('webhook response was absent');
  const v1 = request.apiVersion === 'admission.k8s.io/v1';
  if (v1) {
    // v1beta1 answers were never checked for uid or kind; v1 answers are.
    if (response['uid'] !== request.uid) throw new InvalidReview(`expected response.uid="${request.uid}", got "${String(response['uid'] ?? '')}"`);
    if (answer['apiVersion'] !== 'admission.k8s.io/v1' || answer['kind'] !== 'AdmissionReview') {
      throw new InvalidReview(`expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${String(answer['apiVersion'] ?? '')}, Kind=${String(answer['kind'] ?? '')}`);
    }
  }
  const rawPatch = typeof response['patch'] === 'string' && response['patch'] !== '' ? response['patch'] : undefined;
  const patchType = response['patchType'];
  let patch: Buffer | undefined;
  if (mutating) {
    if (v1 && rawPatch && patchType === undefined) throw new InvalidReview('webhook returned response.patch but not response.patchType');
    if (v1 && !rawPatch && patchType !== undefined && patchType !== null) throw new InvalidReview('webhook returned response.patchType but not response.patch');
    if (v1 && rawPatch && patchType !== 'JSONPatch') {
      throw new InvalidReview(typeof patchType === 'string' && patchType !== '' ? `unsupported patch type "${patchType}"` : `webhook returned invalid response.patchType of "${String(patchType)}"`);
    }
    if (rawPatch) patch = Buffer.from(rawPatch, 'base64');
  } else if (v1) {
    if (rawPatch) throw new InvalidReview('validating webhook may not return response.patch');
    if (patchType !== undefined && patchType !== null) throw new InvalidReview('validating webhook may not return response.patchType');
  }
  // The Go field is Result, its JSON key `status`.
  const result = isObject(response['status']) ? (response['status'] as Partial<Status>) : undefined;
  const warnings = Array.isArray(response['warnings']) ? response['warnings'].filter((w): w is string => typeof w === 'string') : [];
  return { allowed: response['allowed'] === true, patch, result, warnings };
}
