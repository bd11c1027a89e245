import type { KubeObject } from '../../../shared/k8s.ts';
import { badRequest } from '../../../shared/apiErrors.ts';
import { decodeProblems, dropFields } from '../../goTypes/typedDecoding.ts';
import type { RequestContext } from '../../store/types.ts';
import { bodyFormatOf } from '../mediaTypes.ts';
import { decodeObjectBody, readBody } from '../requestBody.ts';
import type { ResourceRequest } from '../resourceRequest.ts';

// The body of a POST to a create-only subresource (an Eviction, a Binding, a TokenRequest), decoded
// as the API server decodes it into its Go type: another kind is refused, a value of the wrong type
// is a 400, unknown fields are dropped with a warning or refused under fieldValidation=Strict.

export interface ActionType {
  apiVersion: string;
  kind: string;
  /** Older versions of the kind the server still takes (policy/v1beta1 Evictions). */
  alsoAccepted?: string[];
}

function cannotHandle(type: ActionType, why: string): Error {
  return badRequest(`${type.kind} in version "${type.apiVersion.split('/').pop() ?? ''}" cannot be handled as a ${type.kind}: ${why}`);
}

export async function readActionBody(r: ResourceRequest, type: ActionType, ctx: RequestContext): Promise<KubeObject> {
  const body = decodeObjectBody(await readBody(r.req), bodyFormatOf(r.req.headers['content-type']), { kind: type.kind });
  const apiVersion = body['apiVersion'];
  if (apiVersion !== undefined && apiVersion !== '' && apiVersion !== type.apiVersion && !type.alsoAccepted?.includes(String(apiVersion))) {
    throw badRequest(`the API version in the data (${String(apiVersion)}) does not match the expected API version (${type.apiVersion})`);
  }
  if (body['kind'] !== undefined && body['kind'] !== '' && body['kind'] !== type.kind) {
    throw badRequest(`the kind in the data (${String(body['kind'])}) does not match the expected kind (${type.kind})`);
  }
  const problems = decodeProblems(`${type.apiVersion}/${type.kind}`, body);
  if (problems?.typeError) throw cannotHandle(type, problems.typeError);
  if (problems && problems.unknown.length > 0) {
    const unknown = problems.unknown.map((f) => `unknown field "${f}"`);
    if (ctx.fieldValidation === 'Strict') throw cannotHandle(type, `strict decoding error: ${unknown.join(', ')}`);
    if (ctx.fieldValidation !== 'Ignore') ctx.warnings?.push(...unknown);
    dropFields(body, problems.unknownPaths);
  }
  const metadata = body['metadata'];
  if (metadata !== undefined && (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))) throw badRequest('metadata must be an object');
  body['metadata'] ??= {};
  body['apiVersion'] = type.apiVersion;
  body['kind'] = type.kind;
  return body as KubeObject;
}

/** The API server's check that a subresource's object names the object in the URL. */
export function requireSameName(body: KubeObject, name: string, kind: string): void {
  if (body.metadata.name !== name) throw badRequest(`name in URL does not match name in ${kind} object`);
}

/** An object in the body may leave its namespace out (the URL's is used) but not name another. */
export function requireSameNamespace(body: KubeObject, namespace: string): void {
  const ns = body.metadata.namespace;
  if (ns && ns !== namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  body.metadata.namespace = namespace;
}

/** What a create-only subresource answers when it did its work: a Success Status with code 201. */
export const CREATED_STATUS = JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
