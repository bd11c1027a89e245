import type { KindModule } from './kindModule.ts';
import { AGE_COLUMN, col, field, NAME_COLUMN, num, quantityText } from '../server/tableCells.ts';

// PodDisruptionBudgets (policy/v1), which evictions (pods/eviction) respect.

export const podDisruptionBudgetKind: KindModule = {
  api: { group: 'policy', version: 'v1', resource: 'poddisruptionbudgets', kind: 'PodDisruptionBudget', shortNames: ['pdb'], status: true },
  generation: true,
  zeroStatus: () => ({ disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 }),
  columns: [
    NAME_COLUMN,
    col('Min Available', (o) => quantityText(field(o, 'spec.minAvailable'), 'N/A')),
    col('Max Unavailable', (o) => quantityText(field(o, 'spec.maxUnavailable'), 'N/A')),
    col('Allowed Disruptions', (o) => num(o, 'status.disruptionsAllowed'), 'integer'),
    AGE_COLUMN,
  ],
};
