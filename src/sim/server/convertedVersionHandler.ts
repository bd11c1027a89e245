// The events.k8s.io/v1 API (what client-go's events recorder and controller-runtime's
// GetEventRecorder write): every request is served from the core v1 events, converted both ways
// (src/sim/resources/eventsV1.ts), so an Event written through one API is read through the other.
import type { KubeObject } from '../../shared/k8s.ts';
import { applyJsonPatch } from '../patch/jsonPatch.ts';
import { applyMergePatch } from '../patch/mergePatch.ts';
import { applyStrategicMergePatch, StrategicPatchError } from '../patch/strategicMergePatch.ts';
import { coreFieldSelector, coreToEventsV1, eventsV1ToCore, validateEventsV1Create } from '../resources/eventsV1.ts';
import { invalid } from '../../shared/apiErrors.ts';
import type { ListResult, RequestContext } from '../store/types.ts';
import { negotiateObjectRendering, patchTypeOf } from './mediaTypes.ts';
import { partialObjectMetadataJson, partialObjectMetadataListJson } from './partialMetadata.ts';
import { decodeBody, readBody } from './requestBody.ts';
import type { ResourceRequest } from './resourceRequest.ts';
import { sendJson } from './responses.ts';
import { badRequest, methodNotAllowed, pathNotFound } from './status.ts';
import { readActionBody } from './subresources/actionBody.ts';
import { renderTable } from './table.ts';
import { columnsFor } from './tableColumns.ts';
import { serveWatch } from './watchResponse.ts';

const CORE = { group: '', version: 'v1', resource: 'events' };
const TYPE = { apiVersion: 'events.k8s.io/v1', kind: 'Event' };

function itemsJson(list: ListResult): string {
  // Built-in kinds are listed with bare items.
  return list.items.map((i) => {
    const { kind: _k, apiVersion: _a, ...rest } = coreToEventsV1(i.object);
    return JSON.stringify(rest);
  }).join(',');
}

function listMeta(list: ListResult): { resourceVersion: string; continue?: string; remainingItemCount?: number } {
  const meta: { resourceVersion: string; continue?: string; remainingItemCount?: number } = { resourceVersion: String(list.resourceVersion) };
  if (list.continue) meta.continue = list.continue;
  if (list.remainingItemCount !== undefined) meta.remainingItemCount = list.remainingItemCount;
  return meta;
}

function listJson(list: ListResult): string {
  return `{"kind":"EventList","apiVersion":"events.k8s.io/v1","metadata":${JSON.stringify(listMeta(list))},"items":[${itemsJson(list)}]}`;
}

async function send(r: ResourceRequest, code: number, core: Readonly<KubeObject>, ctx?: RequestContext): Promise<void> {
  if (ctx?.warnings?.length) r.res.setHeader('Warning', ctx.warnings.map((w) => `299 - ${JSON.stringify(w)}`));
  await r.cluster.whenDurable();
  const rendering = negotiateObjectRendering(r.req.headers.accept);
  if (rendering === 'metadata') sendJson(r.res, code, partialObjectMetadataJson(core));
  else if (rendering === 'table') sendJson(r.res, code, renderTable([core], { resourceVersion: core.metadata.resourceVersion ?? '' }, { columns: columnsFor('events'), includeObject: r.query.includeObject(), now: r.cluster.clock.now(), withColumnDefinitions: true }));
  else sendJson(r.res, code, JSON.stringify(coreToEventsV1(core)));
}

function patched(type: ReturnType<typeof patchTypeOf>, view: KubeObject, patch: unknown): KubeObject {
  try {
    const out = type === 'merge' ? applyMergePatch(view, patch) : type === 'json' ? applyJsonPatch(view, patch) : applyStrategicMergePatch(view, patch);
    if (typeof out !== 'object' || out === null || Array.isArray(out)) throw badRequest('the patch did not produce an object');
    return out as KubeObject;
  } catch (err) {
    if (err instanceof StrategicPatchError) throw badRequest(err.message);
    throw err;
  }
}

function collection(r: ResourceRequest, method: string): Promise<void> | void {
  const { cluster, target, query, req } = r;
  if (method === 'GET') {
    if (target.watchPrefix || query.isWatch()) {
      const request = query.watchRequest(target.namespace);
      const fieldSelector = coreFieldSelector(request.fieldSelector);
      if (fieldSelector) request.fieldSelector = fieldSelector;
      serveWatch(req, r.res, { cluster, gvr: CORE, request, ctx: r.ctx, convert: coreToEventsV1 });
      return;
    }
    const request = query.listRequest(target.namespace);
    const fieldSelector = coreFieldSelector(request.fieldSelector);
    if (fieldSelector) request.fieldSelector = fieldSelector;
    const rendering = negotiateObjectRendering(req.headers.accept, 'list');
    const list = cluster.list(CORE, request, r.ctx);
    if (rendering === 'metadata') sendJson(r.res, 200, partialObjectMetadataListJson(list.items.map((i) => i.object), listMeta(list)));
    else if (rendering === 'table') sendJson(r.res, 200, renderTable(list.items.map((i) => i.object), listMeta(list), { columns: columnsFor('events'), includeObject: query.includeObject(), now: cluster.clock.now(), withColumnDefinitions: true }));
    else sendJson(r.res, 200, listJson(list));
    return;
  }
  if (method === 'POST') {
    if (target.namespace === '') throw methodNotAllowed(method);
    return (async () => {
      const ctx = query.writeContext(r.ctx);
      const core = eventsV1ToCore(await readActionBody(r, TYPE, ctx));
      const causes = validateEventsV1Create(core);
      if (causes.length) throw invalid('events.k8s.io', 'Event', core.metadata.name ?? '', causes);
      await send(r, 201, cluster.create(CORE, target.namespace, core, ctx).object, ctx);
    })();
  }
  if (method === 'DELETE') {
    return (async () => {
      const raw = await readBody(req);
      const body = raw.length ? decodeBody(raw, 'json') as Record<string, unknown> : undefined;
      const request = { ...query.listRequest(target.namespace), ...query.deleteOptions(body) };
      const fieldSelector = coreFieldSelector(request.fieldSelector);
      if (fieldSelector) request.fieldSelector = fieldSelector;
      const deleted = cluster.deleteCollection(CORE, request, query.deleteContext(r.ctx, body));
      await cluster.whenDurable();
      sendJson(r.res, 200, listJson(deleted));
    })();
  }
  throw methodNotAllowed(method);
}

async function item(r: ResourceRequest, method: string): Promise<void> {
  const { cluster, target, query, req } = r;
  const { namespace, name } = target;
  switch (method) {
    case 'GET':
      return send(r, 200, cluster.get(CORE, namespace, name, undefined, r.ctx).object);
    case 'PUT': {
      const ctx = query.writeContext(r.ctx);
      const core = eventsV1ToCore(await readActionBody(r, TYPE, ctx));
      return send(r, 200, cluster.update(CORE, namespace, name, core, undefined, ctx).object, ctx);
    }
    case 'PATCH': {
      const type = patchTypeOf(req.headers['content-type']);
      const ctx = query.writeContext(r.ctx);
      if (type === 'apply' && !ctx.fieldManager) throw badRequest('PATCH, fieldManager is required for apply requests');
      const patch = decodeBody(await readBody(req), type === 'apply' ? 'yaml' : 'json');
      const current = cluster.get(CORE, namespace, name, undefined, r.ctx).object;
      const next = eventsV1ToCore(patched(type, coreToEventsV1(current), patch));
      next.metadata = { ...next.metadata, resourceVersion: next.metadata?.resourceVersion ?? current.metadata.resourceVersion };
      return send(r, 200, cluster.update(CORE, namespace, name, next, undefined, ctx).object, ctx);
    }
    case 'DELETE': {
      const raw = await readBody(req);
      const body = raw.length ? decodeBody(raw, 'json') as Record<string, unknown> : undefined;
      const result = cluster.delete(CORE, namespace, name, query.deleteOptions(body), query.deleteContext(r.ctx, body));
      return send(r, result.deleted ? 200 : 202, result.object.object);
    }
    default:
      throw methodNotAllowed(method);
  }
}

export async function serveEventsV1(r: ResourceRequest): Promise<void> {
  const method = r.req.method ?? 'GET';
  if (r.target.subresource !== '') throw pathNotFound();
  if (r.target.name === '') return collection(r, method);
  if (r.target.namespace === '') throw pathNotFound();
  if (method === 'GET' && (r.target.watchPrefix || r.query.isWatch())) {
    const request = r.query.watchRequest(r.target.namespace);
    request.fieldSelector = [coreFieldSelector(request.fieldSelector), `metadata.name=${r.target.name}`].filter(Boolean).join(',');
    serveWatch(r.req, r.res, { cluster: r.cluster, gvr: CORE, request, ctx: r.ctx, convert: coreToEventsV1 });
    return;
  }
  return item(r, method);
}
