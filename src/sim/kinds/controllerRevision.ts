import type { KindModule } from './kindModule.ts';
import { AGE_COLUMN, col, list, NAME_COLUMN, num, type Obj } from '../vocabulary/tableCells.ts';

// ControllerRevisions (apps/v1): the revisions of a StatefulSet's or DaemonSet's template. Unlike
// the rest of apps, their strategy keeps no generation.

/** The controller owner as `kind.group/name` (formatResourceName with its kind), `<none>` without one. */
function controller(o: Obj): string {
  const ref = list(o, 'metadata.ownerReferences').find((r) => r['controller'] === true);
  if (!ref) return '<none>';
  const apiVersion = String(ref['apiVersion'] ?? '');
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const kind = String(ref['kind'] ?? '');
  const groupKind = group === '' ? kind : `${kind}.${group}`;
  return `${groupKind.toLowerCase()}/${String(ref['name'] ?? '')}`;
}

export const controllerRevisionKind: KindModule = {
  api: { group: 'apps', version: 'v1', resource: 'controllerrevisions', kind: 'ControllerRevision' },
  columns: [
    NAME_COLUMN,
    col('Controller', controller, 'string', 0, 'Controller of the object'),
    col('Revision', (o) => num(o, 'revision'), 'number', 0, 'Revision indicates the revision of the state represented by Data.'),
    AGE_COLUMN,
  ],
};
