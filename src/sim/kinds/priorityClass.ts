import { setDefault, type Obj } from './defaulting.ts';
import type { KindModule } from './kindModule.ts';
import type { KubeObject } from '../../shared/k8s.ts';
import type { Cause } from '../../shared/apiErrors.ts';
import { AGE_COLUMN, col, field, NAME_COLUMN, num } from '../vocabulary/tableCells.ts';

// PriorityClasses (scheduling.k8s.io/v1). SetDefaults_PriorityClass: pods of this class may
// preempt lower-priority ones unless it says Never; globalDefault stays unset (false). v1.28's
// printer has no PreemptionPolicy column yet (kubernetes#126529 added it in v1.32).

const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;

export const priorityClassKind: KindModule = {
  api: { group: 'scheduling.k8s.io', version: 'v1', resource: 'priorityclasses', kind: 'PriorityClass', namespaced: false, shortNames: ['pc'] },
  // Its strategy sets generation 1 on create and never moves it (the value cannot change).
  generation: true,
  strategy: {
    defaults: (o) => setDefault(o as Obj, 'preemptionPolicy', 'PreemptLowerPriority'),
    generationChanged: () => false,
    validate: userDefinedValueCauses,
  },
  columns: [
    NAME_COLUMN,
    col('Value', (o) => num(o, 'value'), 'integer', 0, 'value represents the integer value of this priority class. This is the actual priority that pods receive when they have the name of this class in their pod spec.'),
    col('Global-Default', (o) => field(o, 'globalDefault') === true, 'boolean', 0, 'globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class. Only one PriorityClass can be marked as `globalDefault`. However, if more than one PriorityClasses exists with their `globalDefault` field set to true, the smallest value of such global default PriorityClasses will be used as the default priority.'),
    AGE_COLUMN,
  ],
};

/** Above a billion is reserved for the system's classes (`system-` names, which kube-apiserver checks by name). */
function userDefinedValueCauses(o: Readonly<KubeObject>): Cause[] {
  if ((o.metadata.name ?? '').startsWith('system-')) return [];
  const value = (o as { value?: unknown }).value;
  if (typeof value !== 'number' || value <= HIGHEST_USER_DEFINABLE_PRIORITY) return [];
  return [{ reason: 'FieldValueForbidden', field: 'value', message: `Forbidden: maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}` }];
}
