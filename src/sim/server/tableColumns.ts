// The columns `kubectl get` shows for a built-in kind: its module's (src/sim/kinds), computed
// server-side like a v1.28 kube-apiserver's printers (pkg/printers/internalversion). Kinds without
// columns of their own get NAME and AGE, as custom resources without additionalPrinterColumns do.
import { builtinColumns } from '../kinds/index.ts';
import { AGE_COLUMN, NAME_COLUMN, type TableColumn } from '../vocabulary/tableCells.ts';

export function columnsFor(resource: string, group?: string): TableColumn[] {
  return builtinColumns(resource, group) ?? [NAME_COLUMN, AGE_COLUMN];
}
