import type { ResourceRequest } from '../resourceRequest.ts';
import { sendJson } from '../responses.ts';
import { badRequest, methodNotAllowed, pathNotFound } from '../status.ts';
import { CREATED_STATUS, readActionBody, requireSameName, requireSameNamespace } from './actionBody.ts';

// POST /api/v1/namespaces/{ns}/pods/{name}/binding (or, the older form, a Binding POSTed to
// /api/v1/namespaces/{ns}/bindings naming its Pod): a scheduler's decision. The store's binding
// writer (src/sim/kinds/podBinding.ts) sets spec.nodeName; the answer is a Success Status, 201.

const PODS = { group: '', version: 'v1', resource: 'pods' };

export async function serveBinding(r: ResourceRequest): Promise<void> {
  const ctx = r.query.writeContext(r.ctx);
  const binding = await readActionBody(r, { apiVersion: 'v1', kind: 'Binding' }, ctx);
  requireSameName(binding, r.target.name, 'Binding');
  requireSameNamespace(binding, r.target.namespace);
  r.cluster.update(PODS, r.target.namespace, r.target.name, binding, 'binding', ctx);
  await r.cluster.whenDurable();
  sendJson(r.res, 201, CREATED_STATUS);
}

/** The `bindings` collection: the Pod is the one the Binding names. */
export async function serveBindingCollection(r: ResourceRequest): Promise<void> {
  const method = r.req.method ?? 'GET';
  if (r.target.name !== '') throw pathNotFound();
  if (method !== 'POST') throw methodNotAllowed(method);
  if (r.target.namespace === '') throw methodNotAllowed(method);
  const ctx = r.query.writeContext(r.ctx);
  const binding = await readActionBody(r, { apiVersion: 'v1', kind: 'Binding' }, ctx);
  const name = binding.metadata.name;
  if (!name) throw badRequest('name is required');
  requireSameNamespace(binding, r.target.namespace);
  r.cluster.update(PODS, r.target.namespace, name, binding, 'binding', ctx);
  await r.cluster.whenDurable();
  sendJson(r.res, 201, CREATED_STATUS);
}
