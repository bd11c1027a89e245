import { isObj, items, type Obj } from './defaulting.ts';

// RoleBinding and ClusterRoleBinding defaults (rbac/v1 SetDefaults_*RoleBinding, SetDefaults_Subject):
// the API group of the role and of User/Group subjects. A ServiceAccount subject's group is core ('').

const RBAC_GROUP = 'rbac.authorization.k8s.io';

export function roleBindingDefaults(o: Obj): void {
  const roleRef = o.roleRef;
  if (isObj(roleRef) && !roleRef.apiGroup) roleRef.apiGroup = RBAC_GROUP;
  for (const subject of items(o, 'subjects')) {
    if (!subject.apiGroup && (subject.kind === 'User' || subject.kind === 'Group')) subject.apiGroup = RBAC_GROUP;
  }
}
