import type { KubeObject } from '../../shared/k8s.ts';
import type { Cause } from '../../shared/apiErrors.ts';
import { isRecord, notSupported } from './fieldErrors.ts';
import { validateIntOrPercent } from './intOrPercent.ts';
import type { KindModule } from './kindModule.ts';
import { validateLabelSelector } from './labelSelectorObject.ts';
import { AGE_COLUMN, col, field, NAME_COLUMN, num, quantityText } from '../vocabulary/tableCells.ts';

// PodDisruptionBudgets (policy/v1), which evictions (pods/eviction) respect.
// ValidatePodDisruptionBudgetSpec: one of minAvailable and maxUnavailable, each a count or a
// percentage up to 100%, a valid selector, a known unhealthy-pod eviction policy.

const EVICTION_POLICIES = ['AlwaysAllow', 'IfHealthyBudget'];

function validate(o: Readonly<KubeObject>): Cause[] {
  const spec = isRecord(o.spec) ? o.spec : {};
  const causes: Cause[] = [];
  const has = (k: string): boolean => spec[k] !== undefined && spec[k] !== null;
  if (has('minAvailable') && has('maxUnavailable')) {
    causes.push({ reason: 'FieldValueInvalid', field: 'spec', message: `Invalid value: ${JSON.stringify(spec)}: minAvailable and maxUnavailable cannot be both set` });
  }
  causes.push(...validateIntOrPercent(spec.minAvailable, 'spec.minAvailable'));
  causes.push(...validateIntOrPercent(spec.maxUnavailable, 'spec.maxUnavailable'));
  causes.push(...validateLabelSelector(spec.selector, 'spec.selector'));
  if (has('unhealthyPodEvictionPolicy') && !EVICTION_POLICIES.includes(String(spec.unhealthyPodEvictionPolicy))) {
    causes.push(notSupported('spec.unhealthyPodEvictionPolicy', spec.unhealthyPodEvictionPolicy, EVICTION_POLICIES));
  }
  return causes;
}

export const podDisruptionBudgetKind: KindModule = {
  api: { group: 'policy', version: 'v1', resource: 'poddisruptionbudgets', kind: 'PodDisruptionBudget', shortNames: ['pdb'], status: true },
  strategy: { validate },
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
