import { setDefault, type Obj } from './defaulting.ts';

// PriorityClass defaults (scheduling/v1 SetDefaults_PriorityClass): pods of this class may preempt
// lower-priority ones unless it says Never. globalDefault stays unset (false).

export function priorityClassDefaults(o: Obj): void {
  setDefault(o, 'preemptionPolicy', 'PreemptLowerPriority');
}
