// A kind the API server makes up on each read and never stores (ComponentStatuses): GET of its
// collection lists what it says now, GET of one name reads it, and nothing else is served. As
// kube-apiserver's componentstatus REST, an unknown name is a 500 ("Component not found"), lists
// carry no resourceVersion and there is no watch.
import type { KubeObject } from '../../shared/k8s.ts';
import type { ResourceInfo } from '../vocabulary/resourceInfo.ts';
import type { KindModule } from '../kinds/kindModule.ts';
import { negotiateObjectRendering } from './mediaTypes.ts';
import type { ResourceRequest } from './resourceRequest.ts';
import { sendJson } from './responses.ts';
import { methodNotAllowed, pathNotFound } from './status.ts';
import { internalError, methodNotAllowed as notAllowed } from '../../shared/apiErrors.ts';
import { renderTable } from './table.ts';
import { partialObjectMetadata, partialObjectMetadataListJson } from './partialMetadata.ts';

export function serveMadeUp(r: ResourceRequest, info: ResourceInfo, module: KindModule & { madeUp: () => KubeObject[] }): void {
  const method = r.req.method ?? 'GET';
  if (r.target.subresource !== '') throw pathNotFound();
  if (method !== 'GET') throw methodNotAllowed(method);
  // NewMethodNotSupported: its storage is no Watcher.
  if (r.target.watchPrefix || (r.target.name === '' && r.query.isWatch())) throw notSupported('watch', info.resource);
  if (module.warning) r.res.setHeader('Warning', `299 - ${JSON.stringify(module.warning)}`);
  const objects = module.madeUp();
  const columns = module.columns ?? [];
  const table = (items: readonly KubeObject[]) => renderTable(items, {}, { columns, includeObject: r.query.includeObject(), now: r.cluster.clock.now(), withColumnDefinitions: true });
  if (r.target.name === '') {
    const rendering = negotiateObjectRendering(r.req.headers.accept, 'list');
    if (rendering === 'table') return sendJson(r.res, 200, table(objects));
    if (rendering === 'metadata') return sendJson(r.res, 200, partialObjectMetadataListJson(objects, {}));
    // Items of a list carry no kind or apiVersion of their own.
    const items = objects.map(({ kind: _kind, apiVersion: _apiVersion, ...rest }) => rest);
    return sendJson(r.res, 200, JSON.stringify({ kind: `${info.kind}List`, apiVersion: 'v1', metadata: {}, items }));
  }
  const found = objects.find((o) => o.metadata.name === r.target.name);
  if (!found) throw internalError(`Component not found: ${r.target.name}`);
  const rendering = negotiateObjectRendering(r.req.headers.accept);
  if (rendering === 'table') return sendJson(r.res, 200, table([found]));
  if (rendering === 'metadata') return sendJson(r.res, 200, JSON.stringify(partialObjectMetadata(found)));
  sendJson(r.res, 200, JSON.stringify(found));
}

function notSupported(action: string, resource: string) {
  return notAllowed(`${action} is not supported on resources of kind ${JSON.stringify(resource)}`);
}
