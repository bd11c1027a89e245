import type { KubeObject } from '../../../shared/k8s.ts';
import { ApiError } from '../../../shared/apiError.ts';
import { badRequest, conflict, invalid } from '../../../shared/apiErrors.ts';
import { timestamp } from '../../vocabulary/objectMeta.ts';
import type { ResourceRequest } from '../resourceRequest.ts';
import { DEFAULT_AUDIENCE, type TokenClaims } from '../serviceAccountTokens.ts';
import { sendJson } from '../responses.ts';
import { readActionBody } from './actionBody.ts';
import { managedFieldsOfRequest } from '../../apply/unstoredAnswers.ts';
import { writerOf } from '../../store/writeContext.ts';

// POST /api/v1/namespaces/{ns}/serviceaccounts/{name}/token (`kubectl create token`): a TokenRequest
// answered with a token for the ServiceAccount, as kube-apiserver's TokenREST does: spec defaulted
// (the API server's audience, 3600 s), validated (600 s to 2^32 s), optionally bound to a Pod or
// Secret of the namespace, and nothing stored.

const GROUP_KIND = { group: 'authentication.k8s.io', kind: 'TokenRequest' };
const MIN_SECONDS = 600;
const MAX_SECONDS = 2 ** 32;

type TokenRequest = KubeObject & {
  spec?: { audiences?: string[] | null; expirationSeconds?: number | null; boundObjectRef?: BoundRef | null };
};
type BoundRef = { kind?: string; apiVersion?: string; name?: string; uid?: string };

function boundObject(r: ResourceRequest, ref: BoundRef, serviceAccount: string): TokenClaims['boundTo'] {
  const [group, version] = (ref.apiVersion ?? '').includes('/') ? (ref.apiVersion ?? '').split('/') : ['', ref.apiVersion ?? ''];
  const kind = ref.kind ?? '';
  if (group !== '' || (kind !== 'Pod' && kind !== 'Secret')) throw badRequest(`cannot bind token to object of type ${group}/${version}, Kind=${kind}`);
  const resource = kind === 'Pod' ? 'pods' : 'secrets';
  const object = r.cluster.get({ group: '', version: 'v1', resource }, r.target.namespace, ref.name ?? '', undefined, r.ctx).object;
  if (kind === 'Pod' && (object.spec as { serviceAccountName?: string } | undefined)?.serviceAccountName !== serviceAccount) {
    throw badRequest(`cannot bind token for serviceaccount ${JSON.stringify(serviceAccount)} to pod running with different serviceaccount name.`);
  }
  const uid = object.metadata.uid ?? '';
  if (ref.uid && ref.uid !== uid) {
    throw conflict('', kind, ref.name ?? '', `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`);
  }
  return { kind, name: ref.name ?? '', uid };
}

const TOKEN_REQUEST = { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest', resource: 'serviceaccounts', subresource: 'token' };

export async function serveToken(r: ResourceRequest): Promise<void> {
  const { namespace, name } = r.target;
  const ctx = r.query.writeContext(r.ctx);
  const request = await readActionBody(r, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest' }, ctx) as TokenRequest;
  if (request.metadata.name && request.metadata.name !== name) {
    throw invalid(GROUP_KIND.group, GROUP_KIND.kind, name, [{ reason: 'FieldValueInvalid', field: 'metadata.name', message: `Invalid value: ${JSON.stringify(request.metadata.name)}: must match the service account name if specified` }]);
  }
  if (request.metadata.namespace && request.metadata.namespace !== namespace) {
    throw invalid(GROUP_KIND.group, GROUP_KIND.kind, name, [{ reason: 'FieldValueInvalid', field: 'metadata.namespace', message: `Invalid value: ${JSON.stringify(request.metadata.namespace)}: must match the service account namespace if specified` }]);
  }
  const serviceAccount = r.cluster.get({ group: '', version: 'v1', resource: 'serviceaccounts' }, namespace, name, undefined, r.ctx).object;
  const spec = request.spec ?? {};
  const audiences = spec.audiences?.length ? spec.audiences : [DEFAULT_AUDIENCE];
  const expirationSeconds = spec.expirationSeconds ?? 3600;
  if (expirationSeconds < MIN_SECONDS || expirationSeconds > MAX_SECONDS) {
    const why = expirationSeconds < MIN_SECONDS ? 'may not specify a duration less than 10 minutes' : 'may not specify a duration larger than 2^32 seconds';
    throw invalid(GROUP_KIND.group, GROUP_KIND.kind, '', [{ reason: 'FieldValueInvalid', field: 'spec.expirationSeconds', message: `Invalid value: ${expirationSeconds}: ${why}` }]);
  }
  const boundTo = spec.boundObjectRef ? boundObject(r, spec.boundObjectRef, name) : undefined;
  if (!r.tokens) throw new ApiError(500, 'Internal error occurred: no token issuer', 'InternalError');
  const nowMs = r.cluster.clock.now();
  const issuedAt = Math.floor(nowMs / 1000);
  const token = r.tokens.issue({
    namespace,
    serviceAccount: { name, uid: serviceAccount.metadata.uid ?? '' },
    audiences,
    issuedAt,
    expirationSeconds,
    ...(boundTo ? { boundTo } : {}),
  });
  const managedFields = managedFieldsOfRequest(request as unknown as KubeObject, TOKEN_REQUEST, writerOf(ctx), timestamp(nowMs));
  const answer = {
    kind: 'TokenRequest',
    apiVersion: 'authentication.k8s.io/v1',
    metadata: { ...request.metadata, name, namespace, creationTimestamp: timestamp(nowMs), ...(managedFields ? { managedFields } : {}) },
    spec: { audiences, expirationSeconds, boundObjectRef: spec.boundObjectRef ?? null },
    status: { token, expirationTimestamp: timestamp((issuedAt + expirationSeconds) * 1000) },
  };
  // Nothing is written: a dry run answers the same (with a token that works, as kube-apiserver's does).
  sendJson(r.res, 201, JSON.stringify(answer));
}
