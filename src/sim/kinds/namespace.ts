import type { KubeObject } from '../../shared/k8s.ts';
import { isRecord } from './fieldErrors.ts';
import type { KindStrategy } from './kindStrategy.ts';
import type { KindModule } from './kindModule.ts';
import { AGE_COLUMN, col, NAME_COLUMN, str } from '../vocabulary/tableCells.ts';

// Namespaces: the `kubernetes.io/metadata.name` label SetDefaults_Namespace keeps equal to the
// name (a write that removes it gets it back), the `kubernetes` finalizer and Active phase a new
// one starts with, and spec.finalizers that only the /finalize subresource changes.

const NAME_LABEL = 'kubernetes.io/metadata.name';

export const namespaceStrategy: KindStrategy = {
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
};

export const namespaceKind: KindModule = {
  api: { group: '', version: 'v1', resource: 'namespaces', kind: 'Namespace', namespaced: false, shortNames: ['ns'], status: true, nameRule: 'label', verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] },
  strategy: namespaceStrategy,
  columns: [NAME_COLUMN, col('Status', (o) => str(o, 'status.phase', 'Active')), AGE_COLUMN],
};
