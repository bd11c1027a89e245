// The REST verbs on a resource path, mapped onto the store: collection GET (list or watch), POST
// (create), DELETE (deletecollection); item GET/PUT/PATCH/DELETE; `/status`, `/scale` and the kinds'
// own subresources (a CSR's `/approval`; create-only ones in ./subresources). The store
// does the semantics and throws ApiErrors; this layer only decodes, negotiates and encodes.
import type { ServerResponse } from 'node:http';
import type { GroupVersionResource, KubeObject } from '../../shared/k8s.ts';
import { managedFieldsOfRequest } from '../apply/unstoredAnswers.ts';
import { writerOf } from '../store/writeContext.ts';
import { timestamp } from '../vocabulary/objectMeta.ts';
import type { ResourceInfo } from '../vocabulary/resourceInfo.ts';
import type { FieldOrder } from '../vocabulary/fieldValidation.ts';
import type { SimClusterApi } from '../simCluster.ts';
import { parseResourceVersion } from '../store/resourceVersionParam.ts';
import type { ListResult, RequestContext, StoredObject, Subresource, WatchRequest } from '../store/types.ts';
import { mayHaveBody } from './http2Settings.ts';
import { bodyFormatOf, negotiateObjectRendering, patchTypeOf, type ObjectRendering } from './mediaTypes.ts';
import { partialObjectMetadataJson, partialObjectMetadataListJson } from './partialMetadata.ts';
import { decodeAppliedBody, decodeBody, decodeObjectBody, decodeWrittenBody, readBody, requireShape } from './requestBody.ts';
import type { ResourceTarget } from './requestPath.ts';
import { JSON_CONTENT_TYPE, sendJson } from './responses.ts';
import { pumpBody, takeTurn } from './chunkPump.ts';
import { sharedListPages } from './sharedListBodies.ts';
import { listSeats, sendTooManyRequests } from './inFlightLimit.ts';
import { answerReview } from './reviews.ts';
import { serveMadeUp } from './madeUpResource.ts';
import { kindModuleFor } from '../kinds/index.ts';
import { decodeBuiltin, refuseMiswrittenNumbers } from '../store/bodyDecoding.ts';
import { badRequest, methodNotAllowed, pageNotFound, pathNotFound } from './status.ts';
import { notFound, tooLargeResourceVersion } from '../../shared/apiErrors.ts';
import { tableColumnsFor } from './printerColumns.ts';
import { renderTable } from './table.ts';
import type { TableColumn } from '../vocabulary/tableCells.ts';
import { deleteAnswerJson } from './deleteAnswer.ts';
import { serveWatch, type WatchResponseOptions } from './watchResponse.ts';
import { actionSubresource } from './subresources/index.ts';
import { serveBindingCollection } from './subresources/binding.ts';
import { serveConvertedVersion } from './convertedVersionHandler.ts';
import { listMetaOf } from './listMeta.ts';
import { withDefaultPropagation } from './deletePropagation.ts';
import { convertedVersionFor } from '../resources/convertedVersions.ts';
import type { ResourceRequest } from './resourceRequest.ts';
import { admittedWrite, type AdmittedWrite } from '../admission/index.ts';

export type { ResourceRequest };


/** Errors the store already counted in client insight (lists and writes record their failures). */
const recordedByStore = new WeakSet<object>();

export function wasRecordedByStore(err: unknown): boolean {
  return typeof err === 'object' && err !== null && recordedByStore.has(err);
}

function recording<T>(call: () => T): T {
  try {
    return call();
  } catch (err) {
    if (typeof err === 'object' && err !== null) recordedByStore.add(err);
    throw err;
  }
}

/** A write is answered only once it is on disk (with a state dir): the acknowledged point, as etcd's. */
async function sendWritten(r: ResourceRequest, code: number, json: string): Promise<void> {
  await r.cluster.whenDurable();
  sendJson(r.res, code, json);
}

/** The object a write answers with: only its metadata when the metadata client asked for that. */
function writtenJson(r: ResourceRequest, stored: StoredObject): string {
  let rendering: ObjectRendering = 'object';
  try {
    rendering = negotiateObjectRendering(r.req.headers.accept);
  } catch {
    // Writes answer JSON whatever the client prefers.
  }
  return rendering === 'metadata' ? partialObjectMetadataJson(stored.object) : stored.json();
}

function requireVerb(info: ResourceInfo, verb: string, method: string): void {
  if (!info.verbs.includes(verb)) throw methodNotAllowed(method);
}

function resolve(cluster: SimClusterApi, target: ResourceTarget): ResourceInfo {
  const info = cluster.resources.lookup({ group: target.group, version: target.version, resource: target.resource });
  // A served group/version answers an unknown resource with a Status; a version nobody serves (even
  // of a known group) is no route at all, the mux's plain-text 404.
  if (!info) throw servesVersion(cluster, target.group, target.version) ? pathNotFound() : pageNotFound();
  // A namespace in the path of a cluster-scoped resource addresses nothing.
  if (target.namespace !== '' && !info.namespaced) throw pathNotFound();
  return info;
}

function servesVersion(cluster: SimClusterApi, group: string, version: string): boolean {
  if (group === '') return version === 'v1';
  return cluster.resources.groups().some((g) => g.name === group && g.versions.includes(version));
}

function subresourceOf(info: ResourceInfo, name: string, objectName: string): Subresource | undefined {
  if (name === '') return undefined;
  if ((name === 'status' || name === 'scale' || name === 'approval' || name === 'finalize') && info.subresources.some((s) => s.name === name)) return name;
  // The CR handler answers a subresource its CRD does not enable as the object not found.
  if (info.source === 'crd') throw notFound(info.group, info.resource, objectName);
  throw pathNotFound();
}

const CRD_GVR: GroupVersionResource = { group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' };

function columns(r: ResourceRequest, info: ResourceInfo): TableColumn[] {
  return tableColumnsFor(info, (name) => {
    try {
      return r.cluster.get(CRD_GVR, '', name).object;
    } catch {
      return undefined;
    }
  });
}

function sendObject(r: ResourceRequest, code: number, stored: StoredObject, rendering: ObjectRendering, info: ResourceInfo): void {
  if (rendering === 'metadata') {
    sendJson(r.res, code, partialObjectMetadataJson(stored.object));
  } else if (rendering === 'table') {
    const json = renderTable([stored.object], { resourceVersion: String(stored.resourceVersion) }, {
      columns: columns(r, info),
      includeObject: r.query.includeObject(),
      now: r.cluster.clock.now(),
      withColumnDefinitions: true,
    });
    sendJson(r.res, code, json);
  } else {
    sendJson(r.res, code, stored.json());
  }
}

/** At most how many objects a LIST will answer: all of its resource, or its page. */
function estimatedListSize(cluster: SimClusterApi, info: ResourceInfo, limit: number | undefined): number {
  const objects = cluster.stats().resources.find((t) => t.group === info.group && t.resource === info.resource)?.objects ?? 0;
  return limit !== undefined && limit > 0 ? Math.min(limit, objects) : objects;
}

/** Lists longer than this are streamed in chunks (see chunkPump.ts); shorter ones go out in one write. */
const STREAM_FROM_ITEMS = 100;

/** What makes two LIST answers the same bytes: the resource, the request's list options and the snapshot served. */
function listBodyKey(r: ResourceRequest, list: ListResult): string {
  const { group, version, resource, namespace } = r.target;
  return JSON.stringify([group, version, resource, list.kind, list.apiVersion, list.resourceVersion, r.query.listRequest(namespace)]);
}

function sendList(r: ResourceRequest, list: ListResult, rendering: ObjectRendering, info: ResourceInfo): void {
  if (rendering === 'metadata') {
    sendJson(r.res, 200, partialObjectMetadataListJson(list.items.map((i) => i.object), listMetaOf(list)));
    return;
  }
  if (rendering === 'object') {
    if (list.items.length <= STREAM_FROM_ITEMS) {
      sendJson(r.res, 200, list.json());
      return;
    }
    r.res.writeHead(200, { 'Content-Type': JSON_CONTENT_TYPE, 'Cache-Control': 'no-cache, private' });
    pumpBody(r.res, sharedListPages(listBodyKey(r, list), list, r.res));
    return;
  }
  sendJson(r.res, 200, renderTable(list.items.map((i) => i.object), listMetaOf(list), {
    columns: columns(r, info),
    includeObject: r.query.includeObject(),
    now: r.cluster.clock.now(),
    withColumnDefinitions: true,
  }));
}

function startWatch(r: ResourceRequest, info: ResourceInfo, gvr: GroupVersionResource, request: WatchRequest): void {
  requireVerb(info, 'watch', 'GET');
  const options: WatchResponseOptions = { cluster: r.cluster, gvr, request, ctx: r.ctx };
  const rendering = negotiateObjectRendering(r.req.headers.accept);
  if (rendering === 'table') options.table = { includeObject: r.query.includeObject(), columns: columns(r, info) };
  if (rendering === 'metadata') options.metadataOnly = true;
  serveWatch(r.req, r.res, options);
}

/** The object a POST or PUT sends, and the fields its JSON named twice (the write's context carries them to the store). */
async function readObject(r: ResourceRequest, info: ResourceInfo): Promise<{ body: KubeObject; repeated: RepeatedFields }> {
  const format = bodyFormatOf(r.req.headers['content-type']);
  const { object: body, duplicateFields, fieldOrder, repeatedYamlKeys = [] } = decodeWrittenBody(await readBody(r.req), format, info);
  refuseMiswrittenNumbers(info, body);
  const metadata = body['metadata'];
  if (metadata !== undefined && (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))) {
    throw badRequest('metadata must be an object');
  }
  if (metadata === undefined) body['metadata'] = {};
  return { body: body as KubeObject, repeated: { duplicateFields, fieldOrder, repeatedYamlKeys } };
}

/** The fields a body named twice, and where it names each field when it did. */
interface RepeatedFields {
  duplicateFields: string[];
  fieldOrder: FieldOrder | undefined;
  /** A YAML body's keys named twice, in yaml.v2's words. */
  repeatedYamlKeys: string[];
}

/**
 * The write's context: the client's, with the query's write options and the body's duplicate
 * fields. A YAML body's repeated keys are refused under fieldValidation=Strict, a warning each under Warn.
 */
function writeContextFor(r: ResourceRequest, info: ResourceInfo, { duplicateFields, fieldOrder, repeatedYamlKeys }: RepeatedFields): RequestContext {
  const ctx = r.query.writeContext(r.ctx, r.req.method === 'PUT' ? 'UpdateOptions' : 'CreateOptions');
  if (duplicateFields.length > 0) ctx.duplicateFields = duplicateFields;
  if (fieldOrder) ctx.fieldOrder = fieldOrder;
  if (repeatedYamlKeys.length > 0) {
    const mode = ctx.fieldValidation ?? 'Warn';
    if (mode === 'Strict') throw badRequest(`${info.kind} in version "${info.version}" cannot be handled as a ${info.kind}: strict decoding error: yaml: unmarshal errors:\n  ${repeatedYamlKeys.join('\n  ')}`);
    if (mode === 'Warn') ctx.warnings?.push(...repeatedYamlKeys);
  }
  return ctx;
}

async function readOptionalBody(r: ResourceRequest): Promise<Record<string, unknown> | undefined> {
  if (!mayHaveBody(r.req)) return undefined;
  const raw = await readBody(r.req);
  if (raw.length === 0 || raw.toString('utf8').trim() === '') return undefined;
  return decodeObjectBody(raw, bodyFormatOf(r.req.headers['content-type']));
}

/** A review is only ever POSTed to its collection; the answer is made up, never stored. */
async function serveReview(r: ResourceRequest, info: ResourceInfo): Promise<void> {
  if (r.target.name !== '') throw pathNotFound();
  const method = r.req.method ?? 'GET';
  if (method !== 'POST') throw methodNotAllowed(method);
  // A review has no table convertor: asked only for a Table, the answer is refused before the body is read.
  negotiateObjectRendering(r.req.headers.accept, 'item', false);
  const { body } = await readObject(r, info);
  // Decoded as any built-in body: a wrong JSON type is a 400, unknown fields are warned about (or refused).
  const ctx = r.query.writeContext(r.ctx);
  // The fields the request set, as sent: not the zero status decoding fills in, nor the answer.
  const sent = structuredClone(body);
  decodeBuiltin(info, body, { mode: ctx.fieldValidation ?? 'Warn', warnings: ctx.warnings });
  const managedFields = managedFieldsOfRequest(sent, info, writerOf(ctx), timestamp(r.cluster.clock.now()));
  const answer = answerReview(info, body, r);
  if (managedFields) (answer['metadata'] as KubeObject['metadata']).managedFields = managedFields;
  sendWarnings(r.res, ctx);
  sendJson(r.res, 201, JSON.stringify(answer));
}

export async function serveResource(r: ResourceRequest): Promise<void> {
  const { cluster, target, query, req } = r;
  const info = resolve(cluster, target);
  if (info.group === '' && info.resource === 'bindings') return serveBindingCollection(r);
  const madeUp = kindModuleFor(info);
  if (madeUp?.madeUp) return serveMadeUp(r, info, { ...madeUp, madeUp: madeUp.madeUp });
  if (info.virtual) return serveReview(r, info);
  const converted = convertedVersionFor(info);
  if (converted) return serveConvertedVersion(r, converted);
  const gvr: GroupVersionResource = { group: target.group, version: target.version, resource: target.resource };
  const method = req.method ?? 'GET';

  // Watching one object through the deprecated `/watch/` prefix is a watch of the collection
  // narrowed to that name; kube-apiserver ignores `?watch=1` on an object's path (a plain GET).
  if (method === 'GET' && target.name !== '' && target.subresource === '' && target.watchPrefix) {
    if (info.namespaced && target.namespace === '') throw pathNotFound();
    const request = query.watchRequest(target.namespace);
    const byName = `metadata.name=${target.name}`;
    request.fieldSelector = request.fieldSelector ? `${request.fieldSelector},${byName}` : byName;
    startWatch(r, info, gvr, request);
    return;
  }

  if (target.name === '') {
    switch (method) {
      case 'GET': {
        if (target.watchPrefix || query.isWatch()) {
          startWatch(r, info, gvr, query.watchRequest(target.namespace));
          return;
        }
        requireVerb(info, 'list', method);
        const rendering = negotiateObjectRendering(req.headers.accept, 'list');
        const request = query.listRequest(target.namespace);
        // Seats are estimated before any work, as kube-apiserver's estimator does, from the resource's object count.
        const estimate = estimatedListSize(cluster, info, request.limit);
        if (r.seat && !r.seat.widen(listSeats(estimate))) {
          sendTooManyRequests(r.res);
          return;
        }
        if (estimate > STREAM_FROM_ITEMS) {
          await takeTurn();
          if (r.res.destroyed) return; // the client gave up while waiting
        }
        sendList(r, recording(() => cluster.list(gvr, request, r.ctx)), rendering, info);
        return;
      }
      case 'POST': {
        requireVerb(info, 'create', method);
        if (info.namespaced && target.namespace === '') throw methodNotAllowed(method);
        const { body, repeated } = await readObject(r, info);
        const ctx = writeContextFor(r, info, repeated);
        const created = await admittedWrite(admitting(r, info, 'create', ctx), (c) => recording(() => cluster.create(gvr, target.namespace, body, c)));
        sendWarnings(r.res, ctx);
        await sendWritten(r, 201, writtenJson(r, created));
        return;
      }
      case 'DELETE': {
        requireVerb(info, 'deletecollection', method);
        const body = await readOptionalBody(r);
        const ctx = query.deleteContext(r.ctx, body);
        const request = { ...query.listRequest(target.namespace), ...withDefaultPropagation(info, query.deleteOptions(body), ctx) };
        const deleted = await admittedWrite(admitting(r, info, 'deletecollection', ctx, query.deleteOptions(body)), (c) => recording(() => cluster.deleteCollection(gvr, request, c)));
        sendWarnings(r.res, ctx);
        await sendWritten(r, 200, deleted.json());
        return;
      }
      default:
        throw methodNotAllowed(method);
    }
  }

  // A namespaced resource is addressed by name only under /namespaces/{ns}/.
  if (info.namespaced && target.namespace === '') throw pathNotFound();
  const action = actionSubresource(info, target.subresource);
  if (action) return action(r);
  const subresource = subresourceOf(info, target.subresource, target.name);
  switch (method) {
    case 'GET': {
      requireVerb(info, 'get', method);
      // Served from the latest state whatever it asks, but read as the API server's storage reads it
      // (a malformed one is its 500), and one the cache has not reached is its 504.
      const asked = parseResourceVersion(query.get('resourceVersion'));
      if (asked !== undefined && asked > cluster.resourceVersion) throw tooLargeResourceVersion(asked, cluster.resourceVersion);
      const rendering = subresource ? 'object' : negotiateObjectRendering(req.headers.accept);
      sendObject(r, 200, cluster.get(gvr, target.namespace, target.name, subresource, r.ctx), rendering, info);
      return;
    }
    case 'PUT': {
      requireVerb(info, 'update', method);
      const { body, repeated } = await readObject(r, info);
      const ctx = writeContextFor(r, info, repeated);
      const updated = await admittedWrite(admitting(r, info, 'update', ctx), (c) => recording(() => cluster.update(gvr, target.namespace, target.name, body, subresource, c)));
      sendWarnings(r.res, ctx);
      await sendWritten(r, 200, writtenJson(r, updated));
      return;
    }
    case 'PATCH': {
      requireVerb(info, 'patch', method);
      const type = patchTypeOf(req.headers['content-type']);
      const ctx = query.writeContext(r.ctx, 'PatchOptions', type);
      const raw = await readBody(req);
      const { patch, repeatedKeys } = type === 'apply' ? decodeAppliedBody(raw) : { patch: decodeBody(raw, 'json', { patch: type }), repeatedKeys: [] };
      if (repeatedKeys.length) ctx.repeatedYamlKeys = repeatedKeys;
      requireShape(patch, raw, { patch: type });
      // An apply that creates its object answers 201 (a dry run's too), as the API server does.
      const creates = type === 'apply' && !subresource && !exists(cluster, gvr, target.namespace, target.name);
      const patched = await admittedWrite(admitting(r, info, 'patch', ctx), (c) => recording(() => cluster.patch(gvr, target.namespace, target.name, type, patch, subresource, c)));
      sendWarnings(r.res, ctx);
      await sendWritten(r, creates ? 201 : 200, writtenJson(r, patched));
      return;
    }
    case 'DELETE': {
      if (subresource) throw methodNotAllowed(method);
      requireVerb(info, 'delete', method);
      const body = await readOptionalBody(r);
      const ctx = query.deleteContext(r.ctx, body);
      const options = withDefaultPropagation(info, query.deleteOptions(body), ctx);
      const result = await admittedWrite(admitting(r, info, 'delete', ctx, options), (c) => recording(() => cluster.delete(gvr, target.namespace, target.name, options, c)));
      sendWarnings(r.res, ctx);
      const json = deleteAnswerJson(info, result.deleted, result.object, () => writtenJson(r, result.object));
      await sendWritten(r, result.deleted || !query.cascadesExplicitly(body) ? 200 : 202, json);
      return;
    }
    default:
      throw methodNotAllowed(method);
  }
}

/** What admission needs to know of a write (src/sim/admission calls the webhooks it matches). */
function admitting(r: ResourceRequest, info: ResourceInfo, verb: AdmittedWrite['verb'], ctx: RequestContext, deleteOptions?: object): AdmittedWrite {
  const w: AdmittedWrite = {
    cluster: r.cluster, info, namespace: r.target.namespace, name: r.target.name, subresource: r.target.subresource, verb, ctx,
    warnOnFailure: (warnings) => sendWarnings(r.res, { warnings: [...warnings] }),
  };
  if (deleteOptions) w.deleteOptions = { ...deleteOptions };
  return w;
}

/** The write's warnings as RFC 7234 Warning headers (code 299), as the API server sends them. */
function sendWarnings(res: ServerResponse, ctx: RequestContext): void {
  if (ctx.warnings?.length) res.setHeader('Warning', ctx.warnings.map((w) => `299 - ${JSON.stringify(w)}`));
}

/** A 422 about the PATCH's options, as the API server answers one (`PatchOptions.meta.k8s.io "" is invalid: …`). */
function exists(cluster: SimClusterApi, gvr: GroupVersionResource, namespace: string, name: string): boolean {
  try {
    cluster.get(gvr, namespace, name);
    return true;
  } catch {
    return false;
  }
}
