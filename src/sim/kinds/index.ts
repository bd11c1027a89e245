import { certificateSigningRequestStrategy } from './certificateSigningRequest.ts';
import type { KubeObject } from '../../shared/k8s.ts';
import { applyDefaults } from '../resources/defaults.ts';
import { configMapStrategy } from './configMap.ts';
import { cronJobStrategy } from './cronJob.ts';
import { daemonSetStrategy } from './daemonSet.ts';
import { deploymentStrategy } from './deployment.ts';
import { eventStrategy } from './event.ts';
import { ingressStrategy } from './ingress.ts';
import { jobStrategy } from './job.ts';
import type { KindStrategy } from './kindStrategy.ts';
import { leaseStrategy } from './lease.ts';
import { namespaceStrategy } from './namespace.ts';
import { persistentVolumeStrategy } from './persistentVolume.ts';
import { persistentVolumeClaimStrategy } from './persistentVolumeClaim.ts';
import { podStrategy } from './pod.ts';
import { podTemplateStrategy } from './podTemplate.ts';
import { replicaSetStrategy } from './replicaSet.ts';
import { clusterRoleBindingStrategy, roleBindingStrategy } from './roleBinding.ts';
import { secretStrategy } from './secret.ts';
import { serviceStrategy } from './service.ts';
import { statefulSetStrategy } from './statefulSet.ts';

// The kinds with rules of their own, by `group/resource`; every other kind takes the defaults.

export type { KindStrategy } from './kindStrategy.ts';

const STRATEGIES: Record<string, KindStrategy> = {
  '/configmaps': configMapStrategy,
  '/secrets': secretStrategy,
  '/events': eventStrategy,
  '/pods': podStrategy,
  '/podtemplates': podTemplateStrategy,
  '/services': serviceStrategy,
  '/persistentvolumeclaims': persistentVolumeClaimStrategy,
  '/persistentvolumes': persistentVolumeStrategy,
  '/namespaces': namespaceStrategy,
  'apps/deployments': deploymentStrategy,
  'certificates.k8s.io/certificatesigningrequests': certificateSigningRequestStrategy,
  'apps/replicasets': replicaSetStrategy,
  'apps/statefulsets': statefulSetStrategy,
  'apps/daemonsets': daemonSetStrategy,
  'batch/jobs': jobStrategy,
  'batch/cronjobs': cronJobStrategy,
  'networking.k8s.io/ingresses': ingressStrategy,
  'coordination.k8s.io/leases': leaseStrategy,
  'rbac.authorization.k8s.io/rolebindings': roleBindingStrategy,
  'rbac.authorization.k8s.io/clusterrolebindings': clusterRoleBindingStrategy,
};

const NONE: KindStrategy = {};

export function strategyFor(info: { group: string; resource: string; source?: string }): KindStrategy {
  if (info.source === 'crd') return NONE;
  return STRATEGIES[`${info.group}/${info.resource}`] ?? NONE;
}

/** The API server's defaults for an object of this kind: its module's, or the shared table's for kinds without one yet. */
export function defaultObject(info: { group: string; resource: string; source?: string }, obj: KubeObject): void {
  const strategy = strategyFor(info);
  if (strategy.defaults) strategy.defaults(obj);
  else applyDefaults(info, obj);
}
