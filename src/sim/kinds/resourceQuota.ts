import type { KindModule } from './kindModule.ts';
import { resourceQuotaCauses } from './resourceQuotaValidation.ts';
import { AGE_COLUMN, col, field, NAME_COLUMN, quantityText, type Obj } from '../vocabulary/tableCells.ts';

// ResourceQuotas (core v1). Their cells come from the status, which the quota controller fills in
// (src/sim/workloads/resourceQuotaController.ts, with the workload simulation on); without it they
// stay empty until something writes /status.

/** A ResourceList (its keys hold dots, so they are read from the map, not as paths). */
function quantities(o: Obj, path: string): Record<string, unknown> {
  const v = field(o, path);
  return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
}

/** `resource: used/hard` for each hard limit, sorted by name; `limits.*` ones go to the Limit column. */
function usage(o: Obj, limits: boolean): string {
  const hard = quantities(o, 'status.hard');
  const used = quantities(o, 'status.used');
  return Object.keys(hard)
    .sort()
    .filter((resource) => resource.startsWith('limits.') === limits)
    .map((resource) => `${resource}: ${quantityText(used[resource], '0')}/${quantityText(hard[resource], '0')}`)
    .join(', ');
}

export const resourceQuotaKind: KindModule = {
  api: { group: '', version: 'v1', resource: 'resourcequotas', kind: 'ResourceQuota', shortNames: ['quota'], status: true },
  zeroStatus: () => ({}),
  strategy: { validate: resourceQuotaCauses },
  columns: [
    NAME_COLUMN,
    AGE_COLUMN,
    col('Request', (o) => usage(o, false), 'string', 0, 'Request represents a minimum amount of cpu/memory that a container may consume.'),
    col('Limit', (o) => usage(o, true), 'string', 0, 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.'),
  ],
};
