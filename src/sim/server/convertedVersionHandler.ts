// The versions of built-in kinds served by conversion (src/sim/resources/convertedVersion.ts):
// events.k8s.io/v1 Events (what client-go's events recorder and controller-runtime's
// GetEventRecorder write) and autoscaling/v1 HorizontalPodAutoscalers (what `kubectl autoscale`
// creates). Every request is served from the stored version, converted both ways, so an object
// written through one version is read through the other; patches apply to this version's shape.
import { ApiError } from '../../shared/apiError.ts';
import { invalid, unclassified } from '../../shared/apiErrors.ts';
import type { KubeObject } from '../../shared/k8s.ts';
import { applyJsonPatch } from '../patch/jsonPatch.ts';
import { applyMergePatch } from '../patch/mergePatch.ts';
import { applyStrategicMergePatch, StrategicPatchError } from '../patch/strategicMergePatch.ts';
import type { ConvertedVersion } from '../resources/convertedVersion.ts';
import type { ListResult, ListRequest, RequestContext, Subresource } from '../store/types.ts';
import { bodyFormatOf, negotiateObjectRendering, patchTypeOf } from './mediaTypes.ts';
import { listMetaOf } from './listMeta.ts';
import { partialObjectMetadataJson, partialObjectMetadataListJson } from './partialMetadata.ts';
import { decodeBody, readBody } from './requestBody.ts';
import type { ResourceRequest } from './resourceRequest.ts';
import { sendJson } from './responses.ts';
import { badRequest, methodNotAllowed, pathNotFound } from './status.ts';
import { readActionBody } from './subresources/actionBody.ts';
import { renderTable } from './table.ts';
import { columnsFor } from './tableColumns.ts';
import { serveWatch } from './watchResponse.ts';

const groupOf = (v: ConvertedVersion): string => (v.type.apiVersion.includes('/') ? v.type.apiVersion.split('/')[0]! : '');

function itemsJson(v: ConvertedVersion, list: ListResult): string {
  // Built-in kinds are listed with bare items.
  return list.items.map((i) => {
    const { kind: _k, apiVersion: _a, ...rest } = v.toServed(i.object);
    return JSON.stringify(rest);
  }).join(',');
}

function listJson(v: ConvertedVersion, list: ListResult): string {
  return `{"kind":"${v.type.kind}List","apiVersion":"${v.type.apiVersion}","metadata":${JSON.stringify(listMetaOf(list))},"items":[${itemsJson(v, list)}]}`;
}

function withStoredFieldSelector<T extends ListRequest>(v: ConvertedVersion, request: T): T {
  const fieldSelector = v.storedFieldSelector?.(request.fieldSelector);
  if (fieldSelector) request.fieldSelector = fieldSelector;
  return request;
}

async function send(r: ResourceRequest, v: ConvertedVersion, code: number, stored: Readonly<KubeObject>, ctx?: RequestContext): Promise<void> {
  const warnings = [...(v.warning ? [v.warning] : []), ...(ctx?.warnings ?? [])];
  if (warnings.length) r.res.setHeader('Warning', warnings.map((w) => `299 - ${JSON.stringify(w)}`));
  await r.cluster.whenDurable();
  const rendering = negotiateObjectRendering(r.req.headers.accept);
  if (rendering === 'metadata') sendJson(r.res, code, partialObjectMetadataJson(stored));
  else if (rendering === 'table') sendJson(r.res, code, renderTable([stored], { resourceVersion: stored.metadata.resourceVersion ?? '' }, { columns: columnsFor(v.stored.resource, v.stored.group), includeObject: r.query.includeObject(), now: r.cluster.clock.now(), withColumnDefinitions: true }));
  else sendJson(r.res, code, JSON.stringify(v.toServed(stored)));
}

function patched(type: ReturnType<typeof patchTypeOf>, view: KubeObject, patch: unknown): KubeObject {
  try {
    const out = type === 'merge' ? applyMergePatch(view, patch) : type === 'json' ? applyJsonPatch(view, patch) : applyStrategicMergePatch(view, patch);
    if (typeof out !== 'object' || out === null || Array.isArray(out)) throw badRequest('the patch did not produce an object');
    return out as KubeObject;
  } catch (err) {
    if (err instanceof StrategicPatchError) throw err.status === 400 ? badRequest(err.message) : unclassified(err.message);
    throw err;
  }
}

function collection(r: ResourceRequest, v: ConvertedVersion, method: string): Promise<void> | void {
  const { cluster, target, query, req } = r;
  if (method === 'GET') {
    if (target.watchPrefix || query.isWatch()) {
      serveWatch(req, r.res, { cluster, gvr: v.stored, request: withStoredFieldSelector(v, query.watchRequest(target.namespace)), ctx: r.ctx, convert: v.toServed });
      return;
    }
    const request = withStoredFieldSelector(v, query.listRequest(target.namespace));
    const rendering = negotiateObjectRendering(req.headers.accept, 'list');
    const list = cluster.list(v.stored, request, r.ctx);
    if (rendering === 'metadata') sendJson(r.res, 200, partialObjectMetadataListJson(list.items.map((i) => i.object), listMetaOf(list)));
    else if (rendering === 'table') sendJson(r.res, 200, renderTable(list.items.map((i) => i.object), listMetaOf(list), { columns: columnsFor(v.stored.resource, v.stored.group), includeObject: query.includeObject(), now: cluster.clock.now(), withColumnDefinitions: true }));
    else sendJson(r.res, 200, listJson(v, list));
    return;
  }
  if (method === 'POST') {
    if (target.namespace === '' && !v.clusterScoped) throw methodNotAllowed(method);
    return (async () => {
      const ctx = query.writeContext(r.ctx);
      const stored = v.toStored(await readActionBody(r, v.type, ctx));
      const causes = v.validateCreate?.(stored) ?? [];
      if (causes.length) throw invalid(groupOf(v), v.type.kind, stored.metadata.name ?? '', causes);
      await send(r, v, 201, cluster.create(v.stored, target.namespace, stored, ctx).object, ctx);
    })();
  }
  if (method === 'DELETE') {
    return (async () => {
      const body = await readDeleteOptions(r);
      const request = withStoredFieldSelector(v, { ...query.listRequest(target.namespace), ...query.deleteOptions(body) });
      const deleted = cluster.deleteCollection(v.stored, request, query.deleteContext(r.ctx, body));
      await cluster.whenDurable();
      sendJson(r.res, 200, listJson(v, deleted));
    })();
  }
  throw methodNotAllowed(method);
}

/** A delete's DeleteOptions body, if any, in the format it says it is (client-go sends protobuf). */
async function readDeleteOptions(r: ResourceRequest): Promise<Record<string, unknown> | undefined> {
  const raw = await readBody(r.req);
  return raw.length ? (decodeBody(raw, bodyFormatOf(r.req.headers['content-type'])) as Record<string, unknown>) : undefined;
}

function currentOrNone(r: ResourceRequest, v: ConvertedVersion): Readonly<KubeObject> | undefined {
  try {
    return r.cluster.get(v.stored, r.target.namespace, r.target.name, undefined, r.ctx).object;
  } catch (err) {
    if (err instanceof ApiError && err.code === 404) return undefined;
    throw err;
  }
}

async function item(r: ResourceRequest, v: ConvertedVersion, method: string, subresource: Subresource | undefined): Promise<void> {
  const { cluster, target, query, req } = r;
  const { namespace, name } = target;
  switch (method) {
    case 'GET':
      return send(r, v, 200, cluster.get(v.stored, namespace, name, undefined, r.ctx).object);
    case 'PUT': {
      const ctx = query.writeContext(r.ctx, 'UpdateOptions');
      const stored = v.toStored(await readActionBody(r, v.type, ctx));
      return send(r, v, 200, cluster.update(v.stored, namespace, name, stored, subresource, ctx).object, ctx);
    }
    case 'PATCH': {
      const type = patchTypeOf(req.headers['content-type']);
      const ctx = query.writeContext(r.ctx, 'PatchOptions', type);
      const patch = decodeBody(await readBody(req), type === 'apply' ? 'yaml' : 'json');
      const current = currentOrNone(r, v);
      if (!current) {
        // Server-side apply creates what is not there yet; the other patches need an object.
        if (type !== 'apply' || subresource) cluster.get(v.stored, namespace, name, undefined, r.ctx);
        return send(r, v, 201, cluster.create(v.stored, namespace, v.toStored(patched(type, { ...v.type, metadata: { name, namespace } }, patch)), ctx).object, ctx);
      }
      const next = v.toStored(patched(type, v.toServed(current), patch));
      next.metadata = { ...next.metadata, resourceVersion: next.metadata?.resourceVersion ?? current.metadata.resourceVersion };
      return send(r, v, 200, cluster.update(v.stored, namespace, name, next, subresource, ctx).object, ctx);
    }
    case 'DELETE': {
      if (subresource) throw methodNotAllowed(method);
      const body = await readDeleteOptions(r);
      const result = cluster.delete(v.stored, namespace, name, query.deleteOptions(body), query.deleteContext(r.ctx, body));
      return send(r, v, result.deleted ? 200 : 202, result.object.object);
    }
    default:
      throw methodNotAllowed(method);
  }
}

export async function serveConvertedVersion(r: ResourceRequest, v: ConvertedVersion): Promise<void> {
  const method = r.req.method ?? 'GET';
  const { subresource } = r.target;
  if (subresource !== '' && !(subresource === 'status' && v.status)) throw pathNotFound();
  if (v.warning) r.res.setHeader('Warning', `299 - ${JSON.stringify(v.warning)}`);
  if (r.target.name === '') return collection(r, v, method);
  if (r.target.namespace === '' && !v.clusterScoped) throw pathNotFound();
  if (method === 'GET' && subresource === '' && (r.target.watchPrefix || r.query.isWatch())) {
    const request = withStoredFieldSelector(v, r.query.watchRequest(r.target.namespace));
    request.fieldSelector = [request.fieldSelector, `metadata.name=${r.target.name}`].filter(Boolean).join(',');
    serveWatch(r.req, r.res, { cluster: r.cluster, gvr: v.stored, request, ctx: r.ctx, convert: v.toServed });
    return;
  }
  return item(r, v, method, subresource === 'status' ? 'status' : undefined);
}
