import type { KindModule } from './kindModule.ts';
import { horizontalPodAutoscalerDefaults } from './horizontalPodAutoscalerDefaults.ts';
import { hpaTargets } from './horizontalPodAutoscalerTargets.ts';
import { validateHorizontalPodAutoscaler } from './horizontalPodAutoscalerValidation.ts';
import type { Obj } from './defaulting.ts';
import { AGE_COLUMN, col, field, NAME_COLUMN, num, str } from '../vocabulary/tableCells.ts';

// HorizontalPodAutoscalers, stored as autoscaling/v2 as v1.28 stores them; autoscaling/v1 is a view
// of these (horizontalPodAutoscalerV1.ts).

export const horizontalPodAutoscalerKind: KindModule = {
  api: { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', shortNames: ['hpa'], categories: ['all'], status: true },
  strategy: { defaults: (o) => horizontalPodAutoscalerDefaults(o as Obj), validate: validateHorizontalPodAutoscaler },
  zeroStatus: () => ({ desiredReplicas: 0 }),
  columns: [
    NAME_COLUMN,
    col('Reference', (o) => `${str(o, 'spec.scaleTargetRef.kind')}/${str(o, 'spec.scaleTargetRef.name')}`),
    col('Targets', hpaTargets),
    col('MinPods', (o) => (typeof field(o, 'spec.minReplicas') === 'number' ? String(field(o, 'spec.minReplicas')) : '<unset>')),
    col('MaxPods', (o) => num(o, 'spec.maxReplicas')),
    col('Replicas', (o) => num(o, 'status.currentReplicas')),
    AGE_COLUMN,
  ],
};
