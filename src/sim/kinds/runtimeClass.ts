import type { KubeObject } from '../../shared/k8s.ts';
import type { Cause } from '../../shared/apiErrors.ts';
import { validateLabels, validateName } from '../vocabulary/metadataValidation.ts';
import { immutable, isRecord } from './fieldErrors.ts';
import type { KindModule } from './kindModule.ts';
import { AGE_COLUMN, col, NAME_COLUMN, str } from '../vocabulary/tableCells.ts';

// RuntimeClasses (node.k8s.io/v1): which container runtime handler pods of the class run with.
// ValidateRuntimeClass[Update]: the handler is a DNS label and never changes; the scheduling
// node selector holds valid labels.

export const runtimeClassKind: KindModule = {
  api: { group: 'node.k8s.io', version: 'v1', resource: 'runtimeclasses', kind: 'RuntimeClass', namespaced: false },
  strategy: {
    validate(o: Readonly<KubeObject>): Cause[] {
      const causes = validateName(typeof o.handler === 'string' ? o.handler : '', 'label', 'handler');
      const scheduling = isRecord(o.scheduling) ? o.scheduling : {};
      if (scheduling.nodeSelector !== undefined) causes.push(...validateLabels(scheduling.nodeSelector, 'scheduling.nodeSelector'));
      return causes;
    },
    validateUpdate: (before, after) => immutable('handler', before.handler, after.handler),
  },
  columns: [NAME_COLUMN, col('Handler', (o) => str(o, 'handler')), AGE_COLUMN],
};
