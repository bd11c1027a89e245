// Server-side printing: `kubectl get` asks for a meta.k8s.io/v1 Table and prints its cells. Rows carry
// the object as PartialObjectMetadata by default (kubectl reads labels and namespace from it), the
// whole object with includeObject=Object, or nothing with None.
import type { KubeObject, ListMeta } from '../../shared/k8s.ts';
import { partialObjectMetadata } from './partialMetadata.ts';
import type { IncludeObject } from './queryParameters.ts';
import type { TableColumn } from '../vocabulary/tableCells.ts';

export interface TableOptions {
  columns: TableColumn[];
  includeObject: IncludeObject;
  now: number;
  /** False for the watch events after the first: the columns are sent once. */
  withColumnDefinitions: boolean;
}

function rowObject(obj: Readonly<KubeObject>, include: IncludeObject): unknown {
  if (include === 'None') return undefined;
  if (include === 'Object') return obj;
  return partialObjectMetadata(obj);
}

export function renderTable(objects: readonly Readonly<KubeObject>[], listMeta: ListMeta, options: TableOptions): string {
  const { columns } = options;
  const table = {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: listMeta,
    columnDefinitions: options.withColumnDefinitions
      ? columns.map((c) => ({ name: c.name, type: c.type, format: c.format, description: c.description, priority: c.priority }))
      : [],
    rows: objects.map((obj) => {
      const row: { cells: unknown[]; object?: unknown } = { cells: columns.map((c) => c.cell(obj, options.now)) };
      const o = rowObject(obj, options.includeObject);
      if (o !== undefined) row.object = o;
      return row;
    }),
  };
  return JSON.stringify(table);
}
