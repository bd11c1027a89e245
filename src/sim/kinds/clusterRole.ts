import type { KindModule } from './kindModule.ts';
import { policyRuleCauses } from './policyRuleValidation.ts';
import { CREATED_AT_COLUMN, NAME_COLUMN } from '../vocabulary/tableCells.ts';

// ClusterRoles (rbac.authorization.k8s.io/v1).

export const clusterRoleKind: KindModule = {
  api: { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles', kind: 'ClusterRole', namespaced: false, nameRule: 'pathSegment' },
  strategy: { validate: (o) => policyRuleCauses(o, false) },
  columns: [NAME_COLUMN, CREATED_AT_COLUMN],
};
