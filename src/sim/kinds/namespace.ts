import type { KubeObject } from '../../shared/k8s.ts';
import { invalid } from '../../shared/apiErrors.ts';
import { isRecord } from './fieldErrors.ts';
import type { KindStrategy } from './kindStrategy.ts';
import type { KindModule } from './kindModule.ts';
import { AGE_COLUMN, col, NAME_COLUMN, str } from '../vocabulary/tableCells.ts';

// Namespaces: the `kubernetes.io/metadata.name` label SetDefaults_Namespace keeps equal to the
// name (a write that removes it gets it back), the `kubernetes` finalizer and Active phase a new
// one starts with, and spec.finalizers that only the /finalize subresource changes.

const NAME_LABEL = 'kubernetes.io/metadata.name';

export const namespaceStrategy: KindStrategy = {
  // Defaulted as the request is decoded, so the request's field manager owns the label, as it does in kube-apiserver.
  defaults(o: KubeObject): void {
    if (o.metadata?.name) o.metadata.labels = { ...o.metadata.labels, [NAME_LABEL]: o.metadata.name };
  },

  prepareForCreate(o: KubeObject): void {
    o.metadata.labels = { ...o.metadata.labels, [NAME_LABEL]: o.metadata.name ?? '' };
    o.spec = { finalizers: ['kubernetes'] };
    o.status = { phase: 'Active' };
  },

  prepareForUpdate(before: Readonly<KubeObject>, next: KubeObject): void {
    next.metadata ??= {};
    next.metadata.labels = { ...next.metadata.labels, [NAME_LABEL]: before.metadata.name ?? '' };
    const spec = isRecord(before.spec) ? before.spec : undefined;
    if (spec === undefined) delete next.spec;
    else next.spec = structuredClone(spec);
  },

  prepareForStatusUpdate(next: KubeObject, _body: Readonly<KubeObject>, before: Readonly<KubeObject>): void {
    // The request's labels stand, and the name label is defaulted back as on any write.
    next.metadata.labels = { ...next.metadata.labels, [NAME_LABEL]: before.metadata.name ?? '' };
  },
};

/**
 * PUT …/namespaces/{name}/finalize: spec.finalizers and metadata change, status stays as stored
 * (the namespace controller clears `kubernetes` once the namespace is empty; envtest suites clear
 * it themselves). Each finalizer must be a qualified name, as kube-apiserver's validation wants.
 */
export function finalizeNamespace(current: Readonly<KubeObject>, body: Readonly<KubeObject>): KubeObject {
  const finalizers = isRecord(body.spec) && Array.isArray(body.spec.finalizers) ? body.spec.finalizers : [];
  const causes = finalizers
    .map((f, i) => (typeof f === 'string' && QUALIFIED_NAME.test(f) ? undefined : { field: `spec.finalizers[${i}]`, value: f }))
    .filter((c) => c !== undefined);
  if (causes.length) throw invalid('', 'Namespace', current.metadata.name ?? '', causes.map((c) => ({ reason: 'FieldValueInvalid', field: c.field, message: `Invalid value: ${JSON.stringify(c.value)}: name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character` })));
  const next = structuredClone(current) as KubeObject;
  next.metadata = structuredClone(body.metadata ?? {});
  next.metadata.labels = { ...next.metadata.labels, [NAME_LABEL]: current.metadata.name ?? '' };
  next.spec = { ...(isRecord(next.spec) ? next.spec : {}), finalizers: [...new Set(finalizers as string[])] };
  if ((next.spec as { finalizers: string[] }).finalizers.length === 0) delete (next.spec as { finalizers?: string[] }).finalizers;
  return next;
}

const QUALIFIED_NAME = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

export const namespaceKind: KindModule = {
  api: {
    group: '',
    version: 'v1',
    resource: 'namespaces',
    kind: 'Namespace',
    namespaced: false,
    shortNames: ['ns'],
    status: true,
    nameRule: 'label',
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    more: [{ name: 'finalize', kind: 'Namespace', verbs: ['update'] }],
  },
  strategy: namespaceStrategy,
  columns: [NAME_COLUMN, col('Status', (o) => str(o, 'status.phase', 'Active')), AGE_COLUMN],
};
