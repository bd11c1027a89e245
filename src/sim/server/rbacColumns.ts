// `kubectl get` columns for RBAC kinds (printRole, printClusterRole, printRoleBinding,
// printClusterRoleBinding): roles show when they were made; bindings show their role and, wide,
// who they bind.
import { AGE_COLUMN, col, CREATED_AT_COLUMN, list, NAME_COLUMN, str, type Obj, type TableColumn } from './tableCells.ts';

/** rbac.SubjectsStrings: a subject list split by kind, each part joined with ", ". */
function subjects(o: Obj, kind: 'User' | 'Group' | 'ServiceAccount'): string {
  return list(o, 'subjects')
    .filter((s) => s['kind'] === kind)
    .map((s) => (kind === 'ServiceAccount' ? `${String(s['namespace'] ?? '')}/${String(s['name'] ?? '')}` : String(s['name'] ?? '')))
    .join(', ');
}

const BINDING_COLUMNS: TableColumn[] = [
  NAME_COLUMN,
  col('Role', (o) => `${str(o, 'roleRef.kind')}/${str(o, 'roleRef.name')}`),
  AGE_COLUMN,
  col('Users', (o) => subjects(o, 'User'), 'string', 1, 'Users in the roleBinding'),
  col('Groups', (o) => subjects(o, 'Group'), 'string', 1, 'Groups in the roleBinding'),
  col('ServiceAccounts', (o) => subjects(o, 'ServiceAccount'), 'string', 1, 'ServiceAccounts in the roleBinding'),
];

export const RBAC_COLUMNS: Record<string, TableColumn[]> = {
  roles: [NAME_COLUMN, CREATED_AT_COLUMN],
  clusterroles: [NAME_COLUMN, CREATED_AT_COLUMN],
  rolebindings: BINDING_COLUMNS,
  clusterrolebindings: BINDING_COLUMNS,
};
