import type { KubeObject } from '../../shared/k8s.ts';
import { recordUpdate } from './fieldManager.ts';
import { managerFromUserAgent, type WriterIdentity } from './forResource.ts';
import { builtinShape } from './openApiShape.ts';

// What the API server answers without storing it (a review, a TokenRequest) still passes its field
// manager on the way in, as every create does: the answer carries the managedFields a create of
// the request's object records (none when the request sets no field).

export interface AnsweredKind {
  group: string;
  version: string;
  kind: string;
  /** The resource whose shape the fields follow (its plural). */
  resource: string;
  /** The subresource the request was made to (`token`), recorded on the entry. */
  subresource?: string;
}

export function managedFieldsOfRequest(request: Readonly<KubeObject>, answered: AnsweredKind, writer: WriterIdentity, now: string): KubeObject['metadata']['managedFields'] {
  const created = { ...request, metadata: { ...request.metadata } } as KubeObject;
  delete created.metadata.managedFields;
  recordUpdate(undefined, created, {
    manager: writer.fieldManager ?? managerFromUserAgent(writer.userAgent ?? ''),
    apiVersion: answered.group ? `${answered.group}/${answered.version}` : answered.version,
    now,
    shape: builtinShape(answered.group, answered.version, answered.kind, answered.resource),
    ownable: (set) => set,
    ...(answered.subresource ? { subresource: answered.subresource } : {}),
  });
  return withoutEmptyMetadata(created.metadata.managedFields);
}

/** An empty metadata (a review names nothing) is no field of the request's: Go's ObjectMeta has nothing set. */
function withoutEmptyMetadata(entries: KubeObject['metadata']['managedFields']): KubeObject['metadata']['managedFields'] {
  const kept = (entries ?? []).filter((e) => {
    const fields = (e as { fieldsV1?: Record<string, unknown> }).fieldsV1;
    const metadata = fields?.['f:metadata'];
    if (fields && metadata && typeof metadata === 'object' && Object.keys(metadata).length === 0) delete fields['f:metadata'];
    return fields !== undefined && Object.keys(fields).length > 0;
  });
  return kept.length > 0 ? kept : undefined;
}
