import type { KubeObject } from '../../shared/k8s.ts';
import { isObj, items, type Obj } from './defaulting.ts';
import type { Cause } from '../../shared/apiErrors.ts';
import { validateName } from '../vocabulary/metadataValidation.ts';
import { isRecord, notSupported, records, required, sameValue } from './fieldErrors.ts';
import type { KindStrategy } from './kindStrategy.ts';
import type { KindModule } from './kindModule.ts';
import { AGE_COLUMN, col, list, NAME_COLUMN, str, type TableColumn } from '../vocabulary/tableCells.ts';

// RoleBindings and ClusterRoleBindings (rbac/v1): SetDefaults_*RoleBinding and SetDefaults_Subject
// (the API group of the role and of User/Group subjects), ValidateRoleBinding's roleRef and
// subjects, and a roleRef that never changes (controllers delete and recreate the binding).

const RBAC_GROUP = 'rbac.authorization.k8s.io';

function defaults(o: KubeObject): void {
  const object = o as Obj;
  const roleRef = object.roleRef;
  if (isObj(roleRef) && !roleRef.apiGroup) roleRef.apiGroup = RBAC_GROUP;
  for (const subject of items(object, 'subjects')) {
    if (!subject.apiGroup && (subject.kind === 'User' || subject.kind === 'Group')) subject.apiGroup = RBAC_GROUP;
  }
}

function validateSubject(s: Record<string, unknown>, at: string, namespaced: boolean): Cause[] {
  const causes: Cause[] = [];
  const name = typeof s.name === 'string' ? s.name : '';
  if (name === '') causes.push(required(`${at}.name`));
  switch (s.kind) {
    case 'ServiceAccount':
      if (name !== '') causes.push(...validateName(name, 'subdomain', `${at}.name`));
      if (s.apiGroup) causes.push(notSupported(`${at}.apiGroup`, s.apiGroup, ['']));
      if (!namespaced && !s.namespace) causes.push(required(`${at}.namespace`));
      break;
    case 'User':
    case 'Group':
      if (s.apiGroup !== RBAC_GROUP) causes.push(notSupported(`${at}.apiGroup`, s.apiGroup ?? '', [RBAC_GROUP]));
      break;
    default:
      causes.push(notSupported(`${at}.kind`, s.kind ?? '', ['ServiceAccount', 'User', 'Group']));
  }
  return causes;
}

const goRoleRef = (r: Record<string, unknown>): string =>
  `rbac.RoleRef{APIGroup:${JSON.stringify(String(r.apiGroup ?? ''))}, Kind:${JSON.stringify(String(r.kind ?? ''))}, Name:${JSON.stringify(String(r.name ?? ''))}}`;

function bindingStrategy(namespaced: boolean): KindStrategy {
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  return {
    defaults,
    validate(o: Readonly<KubeObject>): Cause[] {
      const roleRef = isRecord(o.roleRef) ? o.roleRef : {};
      const causes: Cause[] = [];
      if (roleRef.apiGroup !== RBAC_GROUP) causes.push(notSupported('roleRef.apiGroup', roleRef.apiGroup ?? '', [RBAC_GROUP]));
      if (!kinds.includes(String(roleRef.kind ?? ''))) causes.push(notSupported('roleRef.kind', roleRef.kind ?? '', kinds));
      if (!roleRef.name) causes.push(required('roleRef.name'));
      else causes.push(...validateName(String(roleRef.name), 'pathSegment', 'roleRef.name'));
      records(o.subjects).forEach((s, i) => causes.push(...validateSubject(s, `subjects[${i}]`, namespaced)));
      return causes;
    },
    validateUpdate(before: Readonly<KubeObject>, after: Readonly<KubeObject>): Cause[] {
      if (sameValue(before.roleRef, after.roleRef)) return [];
      const roleRef = isRecord(after.roleRef) ? after.roleRef : {};
      return [{ reason: 'FieldValueInvalid', field: 'roleRef', message: `Invalid value: ${goRoleRef(roleRef)}: cannot change roleRef` }];
    },
  };
}

export const roleBindingStrategy = bindingStrategy(true);
export const clusterRoleBindingStrategy = bindingStrategy(false);

/** rbac.SubjectsStrings: a subject list split by kind, each part joined with ", ". */
function subjects(o: Readonly<KubeObject>, kind: 'User' | 'Group' | 'ServiceAccount'): string {
  return list(o, 'subjects')
    .filter((s) => s['kind'] === kind)
    .map((s) => (kind === 'ServiceAccount' ? `${String(s['namespace'] ?? '')}/${String(s['name'] ?? '')}` : String(s['name'] ?? '')))
    .join(', ');
}

/** printRoleBinding, printClusterRoleBinding: the role and, wide, who is bound. */
export const BINDING_COLUMNS: TableColumn[] = [
  NAME_COLUMN,
  col('Role', (o) => `${str(o, 'roleRef.kind')}/${str(o, 'roleRef.name')}`),
  AGE_COLUMN,
  col('Users', (o) => subjects(o, 'User'), 'string', 1, 'Users in the roleBinding'),
  col('Groups', (o) => subjects(o, 'Group'), 'string', 1, 'Groups in the roleBinding'),
  col('ServiceAccounts', (o) => subjects(o, 'ServiceAccount'), 'string', 1, 'ServiceAccounts in the roleBinding'),
];

export const roleBindingKind: KindModule = {
  api: { group: RBAC_GROUP, version: 'v1', resource: 'rolebindings', kind: 'RoleBinding', nameRule: 'pathSegment' },
  strategy: roleBindingStrategy,
  columns: BINDING_COLUMNS,
};
