// `kubectl get` columns for PodTemplate and ControllerRevision (printPodTemplate,
// printControllerRevision): the templates workloads are made from, and the revisions of them.
import { AGE_COLUMN, col, containerCells, field, labelsText, list, NAME_COLUMN, num, type Obj, type TableColumn } from './tableCells.ts';

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

export const WORKLOAD_HISTORY_COLUMNS: Record<string, TableColumn[]> = {
  // No Age column: v1.28's printer has none for pod templates.
  podtemplates: [
    NAME_COLUMN,
    col('Containers', (o) => containerCells(field(o, 'template.spec'), 'name'), 'string', 0, 'Names of each container in the template.'),
    col('Images', (o) => containerCells(field(o, 'template.spec'), 'image'), 'string', 0, 'Images referenced by each container in the template.'),
    col('Pod Labels', (o) => labelsText(field(o, 'template.metadata.labels')), 'string', 0, 'The labels for the pod template.'),
  ],
  controllerrevisions: [
    NAME_COLUMN,
    col('Controller', controller, 'string', 0, 'Controller of the object'),
    col('Revision', (o) => num(o, 'revision'), 'number', 0, 'Revision indicates the revision of the state represented by Data.'),
    AGE_COLUMN,
  ],
};
