import type { ResourceRequest } from '../resourceHandler.ts';
import { sendJson } from '../responses.ts';
import { CREATED_STATUS, readActionBody, requireSameName, requireSameNamespace } from './actionBody.ts';

// POST /api/v1/namespaces/{ns}/pods/{name}/binding: a scheduler's decision. The store's binding
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
