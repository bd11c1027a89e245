import type { KindModule } from './kindModule.ts';
import { BINDING_COLUMNS, clusterRoleBindingStrategy } from './roleBinding.ts';

// ClusterRoleBindings (rbac.authorization.k8s.io/v1): a RoleBinding's rules, for ClusterRoles only.

export const clusterRoleBindingKind: KindModule = {
  api: { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterrolebindings', kind: 'ClusterRoleBinding', namespaced: false, nameRule: 'pathSegment' },
  strategy: clusterRoleBindingStrategy,
  columns: BINDING_COLUMNS,
};
