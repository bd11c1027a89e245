// `kubectl get` columns for PriorityClass (printPriorityClass). v1.28 has no PreemptionPolicy
// column yet: kubernetes#126529 added it in v1.32.
import { AGE_COLUMN, col, field, NAME_COLUMN, num, type TableColumn } from './tableCells.ts';

export const SCHEDULING_COLUMNS: Record<string, TableColumn[]> = {
  priorityclasses: [
    NAME_COLUMN,
    col('Value', (o) => num(o, 'value'), 'integer', 0, 'value represents the integer value of this priority class. This is the actual priority that pods receive when they have the name of this class in their pod spec.'),
    col('Global-Default', (o) => field(o, 'globalDefault') === true, 'boolean', 0, 'globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class. Only one PriorityClass can be marked as `globalDefault`. However, if more than one PriorityClasses exists with their `globalDefault` field set to true, the smallest value of such global default PriorityClasses will be used as the default priority.'),
    AGE_COLUMN,
  ],
};
