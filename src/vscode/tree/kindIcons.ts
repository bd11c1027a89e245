// One icon per kind, so a namespace (a folder of objects) never looks like the objects in it and a
// Secret reads differently from a ConfigMap at a glance (vscode-kubernetes-tools does the same).

const KIND_ICONS: Record<string, string> = {
  ConfigMap: 'file-code',
  Secret: 'lock',
  Deployment: 'rocket',
  ReplicaSet: 'layers',
  StatefulSet: 'database',
  DaemonSet: 'layers-active',
  Pod: 'vm',
  Job: 'run-all',
  CronJob: 'watch',
  Service: 'globe',
  Ingress: 'arrow-swap',
  Endpoints: 'plug',
  EndpointSlice: 'plug',
  Node: 'server',
  Namespace: 'folder',
  ServiceAccount: 'account',
  Role: 'shield',
  ClusterRole: 'shield',
  RoleBinding: 'link',
  ClusterRoleBinding: 'link',
  PersistentVolume: 'save',
  PersistentVolumeClaim: 'save-as',
  CustomResourceDefinition: 'extensions',
  Lease: 'key',
  Event: 'bell',
  HorizontalPodAutoscaler: 'arrow-both',
};

/** Namespace rows group objects: a folder. */
export const NAMESPACE_ICON = 'folder';

/** The icon of an object of `kind`; custom resources get a shape of their own. */
export function objectIconId(kind: string | undefined): string {
  return (kind && KIND_ICONS[kind]) || 'symbol-class';
}
