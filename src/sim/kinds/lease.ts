import type { KubeObject } from '../../shared/k8s.ts';
import type { Cause } from '../../shared/apiErrors.ts';
import { invalid, isRecord } from './fieldErrors.ts';
import type { KindStrategy } from './kindStrategy.ts';
import type { KindModule } from './kindModule.ts';
import { AGE_COLUMN, col, NAME_COLUMN, str } from '../vocabulary/tableCells.ts';

// Leases (coordination.k8s.io/v1), what leader election writes: ValidateLeaseSpec.

export const leaseStrategy: KindStrategy = {
  validate(o: Readonly<KubeObject>): Cause[] {
    const spec = isRecord(o.spec) ? o.spec : {};
    const causes: Cause[] = [];
    if (typeof spec.leaseDurationSeconds === 'number' && spec.leaseDurationSeconds <= 0) causes.push(invalid('spec.leaseDurationSeconds', spec.leaseDurationSeconds, 'must be greater than 0'));
    if (typeof spec.leaseTransitions === 'number' && spec.leaseTransitions < 0) causes.push(invalid('spec.leaseTransitions', spec.leaseTransitions, 'must be greater than or equal to 0'));
    return causes;
  },
};

export const leaseKind: KindModule = {
  api: { group: 'coordination.k8s.io', version: 'v1', resource: 'leases', kind: 'Lease' },
  strategy: leaseStrategy,
  columns: [NAME_COLUMN, col('Holder', (o) => str(o, 'spec.holderIdentity')), AGE_COLUMN],
};
