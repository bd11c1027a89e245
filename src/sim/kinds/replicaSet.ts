import type { KubeObject } from '../../shared/k8s.ts';
import { obj, setDefault, type Obj } from './defaulting.ts';
import type { Cause } from '../../shared/apiErrors.ts';
import type { KindStrategy } from './kindStrategy.ts';
import type { KindModule } from './kindModule.ts';
import { WORKLOAD_WIDE } from './workloadColumns.ts';
import { AGE_COLUMN, col, NAME_COLUMN, num } from '../vocabulary/tableCells.ts';
import { immutableSelector } from './labelSelectorObject.ts';
import { defaultPodTemplate } from './podSpec.ts';
import { nonNegativeFields, specOf, validateReplicaSetTemplate, validateRequiredSelector } from './workloadSpec.ts';
import { validateWorkloadStatus } from './workloadStatusValidation.ts';

// ReplicaSets (apps/v1): ValidateReplicaSetSpec (whose empty-selector message says "deployment",
// as the API server's does) and a selector that never changes.

export const replicaSetStrategy: KindStrategy = {
  validateStatusUpdate: (_before: Readonly<KubeObject>, after: Readonly<KubeObject>): Cause[] => validateWorkloadStatus('ReplicaSet', after),

  defaults(o: KubeObject): void {
    const spec = obj(o as Obj, 'spec');
    setDefault(spec, 'replicas', 1);
    defaultPodTemplate(spec);
  },

  validate(o: Readonly<KubeObject>): Cause[] {
    const spec = specOf(o);
    return [
      ...nonNegativeFields(spec, ['replicas', 'minReadySeconds']),
      ...validateRequiredSelector(spec, 'deployment'),
      ...validateReplicaSetTemplate(spec, 'ReplicaSet'),
    ];
  },

  validateUpdate(before: Readonly<KubeObject>, after: Readonly<KubeObject>): Cause[] {
    return immutableSelector('spec.selector', specOf(before).selector, specOf(after).selector);
  },
};

export const replicaSetKind: KindModule = {
  api: { group: 'apps', version: 'v1', resource: 'replicasets', kind: 'ReplicaSet', shortNames: ['rs'], categories: ['all'], status: true, scale: true },
  strategy: replicaSetStrategy,
  generation: true,
  zeroStatus: () => ({ replicas: 0 }),
  columns: [
    NAME_COLUMN,
    col('Desired', (o) => num(o, 'spec.replicas'), 'integer'),
    col('Current', (o) => num(o, 'status.replicas'), 'integer'),
    col('Ready', (o) => num(o, 'status.readyReplicas'), 'integer'),
    AGE_COLUMN,
    ...WORKLOAD_WIDE,
  ],
};
