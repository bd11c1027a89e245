import { ApiError } from '../../shared/apiError.ts';
import { badRequest, internalError } from '../../shared/apiErrors.ts';
import type { KubeObject, Status } from '../../shared/k8s.ts';
import { applyJsonPatch } from '../patch/jsonPatch.ts';
import type { InProcessCluster } from '../simObjects.ts';
import { InvalidReview, reviewRequest, reviewResponse, reviewVersionFor, type ReviewOptions, type ReviewResponse } from './admissionReview.ts';
import type { AdmissionAttributes, Invocation } from './admissionAttributes.ts';
import { WebhookCallError, callWebhook } from './webhookCall.ts';

// One webhook call and what comes of it, with kube-apiserver's wording: a webhook that cannot be
// called (down, too slow, a bad answer) fails the request with a 500 under failurePolicy Fail and
// is skipped under Ignore; a denial answers the webhook's own status; a webhook with side effects
// refuses a dry run whatever its failure policy.

/** The request's view shared by its webhook calls. */
export interface CallContext extends ReviewOptions {
  cluster: InProcessCluster;
  /** Collects the webhooks' warnings (the answer's Warning headers). */
  warnings: string[];
}

/** `admission webhook "<name>" denied the request: <message>`, with the webhook's code (at least 400) and reason. */
export function denial(webhookName: string, result: Partial<Status> | undefined): ApiError {
  const deniedBy = `admission webhook "${webhookName}" denied the request`;
  const code = typeof result?.code === 'number' && result.code >= 400 ? result.code : 400;
  const reason = typeof result?.reason === 'string' ? result.reason : '';
  const message = result?.message ? `${deniedBy}: ${result.message}` : reason ? `${deniedBy}: ${reason}` : `${deniedBy} without explanation`;
  const status: Status = { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', message, code };
  if (reason) status.reason = reason;
  if (result?.details) status.details = result.details;
  return new ApiError(code, message, reason, status);
}

/** A failure to talk to the webhook (not the webhook saying no): its failure policy decides. */
class CallingFailure extends Error {}

function failedCalling(name: string, reason: string): ApiError {
  return internalError(`failed calling webhook "${name}": ${reason}`);
}

async function exchange(invocation: Invocation, a: AdmissionAttributes, c: CallContext, mutating: boolean): Promise<ReviewResponse> {
  const { webhook } = invocation;
  if (c.dryRun) {
    if (webhook.sideEffects === undefined) throw new CallingFailure('Webhook SideEffects is nil');
    if (webhook.sideEffects !== 'None' && webhook.sideEffects !== 'NoneOnDryRun') throw badRequest(`admission webhook "${webhook.name}" does not support dry run`);
  }
  const version = reviewVersionFor(webhook.admissionReviewVersions);
  if (!version) throw new CallingFailure('could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)');
  const request = reviewRequest(invocation, a, version, c);
  let answer: unknown;
  try {
    answer = await callWebhook(c.cluster, webhook, request.body);
  } catch (err) {
    if (err instanceof WebhookCallError) throw new CallingFailure(`failed to call webhook: ${err.message}`);
    throw err;
  }
  try {
    return reviewResponse(request, answer, mutating);
  } catch (err) {
    if (err instanceof InvalidReview) throw new CallingFailure(`received invalid webhook response: ${err.message}`);
    throw err;
  }
}

/**
 * Calls one webhook. Answers its response, or undefined when it could not be called and its
 * failure policy is Ignore; throws the request's error otherwise (a denial, or a 500).
 */
export async function callAdmissionWebhook(invocation: Invocation, a: AdmissionAttributes, c: CallContext, mutating: boolean): Promise<ReviewResponse | undefined> {
  const { webhook } = invocation;
  let response: ReviewResponse;
  try {
    response = await exchange(invocation, a, c, mutating);
  } catch (err) {
    if (!(err instanceof CallingFailure)) throw err;
    if (webhook.failurePolicy === 'Ignore') return undefined;
    throw failedCalling(webhook.name, err.message);
  }
  c.warnings.push(...response.warnings);
  if (!response.allowed) throw denial(webhook.name, response.result);
  return response;
}

/** The object after a mutating webhook's JSON patch (in the webhook's version); a patch that does not apply is a 500. */
export function patched(webhookName: string, object: Readonly<KubeObject> | undefined, patch: Buffer, version: string): KubeObject | undefined {
  let ops: unknown;
  try {
    ops = JSON.parse(patch.toString('utf8'));
  } catch (err) {
    throw internalError(`admission webhook "${webhookName}" returned a patch that is not JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!Array.isArray(ops)) throw internalError(`admission webhook "${webhookName}" returned a patch that is not a list of operations`);
  if (ops.length === 0) return undefined;
  if (!object) throw internalError(`admission webhook "${webhookName}" attempted to modify the object, which is not supported for this operation`);
  const group = object.apiVersion?.includes('/') ? object.apiVersion.slice(0, object.apiVersion.indexOf('/')) : '';
  const base = { ...object, apiVersion: group ? `${group}/${version}` : version };
  let result: unknown;
  try {
    result = applyJsonPatch(base, ops);
  } catch (err) {
    throw internalError(err instanceof Error ? err.message : String(err));
  }
  if (typeof result !== 'object' || result === null || Array.isArray(result)) throw internalError(`admission webhook "${webhookName}" patched the object into something that is not an object`);
  const out = result as KubeObject;
  // Back to the request's version: stored objects of other versions differ only in apiVersion.
  out.apiVersion = object.apiVersion;
  return out;
}
