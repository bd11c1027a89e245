import type { KindModule } from './kindModule.ts';
import { AGE_COLUMN, col, field, NAME_COLUMN, str, type Obj } from '../vocabulary/tableCells.ts';

// IngressClasses (networking.k8s.io/v1).

/** The parameters reference as `Kind.apiGroup/name`, `<none>` without one. */
function parameters(o: Obj): string {
  const ref = field(o, 'spec.parameters');
  if (typeof ref !== 'object' || ref === null) return '<none>';
  const group = str(ref, 'apiGroup');
  return `${str(ref, 'kind')}${field(ref, 'apiGroup') === undefined ? '' : `.${group}`}/${str(ref, 'name')}`;
}

export const ingressClassKind: KindModule = {
  api: { group: 'networking.k8s.io', version: 'v1', resource: 'ingressclasses', kind: 'IngressClass', namespaced: false },
  generation: true,
  columns: [
    NAME_COLUMN,
    col('Controller', (o) => str(o, 'spec.controller'), 'string', 0, 'Controller that is responsible for handling this class'),
    col('Parameters', parameters, 'string', 0, 'A reference to a resource with additional parameters'),
    AGE_COLUMN,
  ],
};
