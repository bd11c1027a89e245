import type { KindModule } from './kindModule.ts';
import { policyRuleCauses } from './policyRuleValidation.ts';
import { CREATED_AT_COLUMN, NAME_COLUMN } from '../vocabulary/tableCells.ts';

// Roles (rbac.authorization.k8s.io/v1). RBAC names are path segments (`system:controller:foo`),
// and RBAC kinds have no status.

export const roleKind: KindModule = {
  api: { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'roles', kind: 'Role', nameRule: 'pathSegment' },
  strategy: { validate: (o) => policyRuleCauses(o, true) },
  columns: [NAME_COLUMN, CREATED_AT_COLUMN],
};
