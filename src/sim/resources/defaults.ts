import type { KubeObject } from '../../shared/k8s.ts';
import { horizontalPodAutoscalerDefaults } from './autoscalingDefaults.ts';
import { isObj, obj, setDefault, type Obj } from './defaulting.ts';
import { networkPolicyDefaults } from './networkingDefaults.ts';
import { roleBindingDefaults } from './rbacDefaults.ts';
import { persistentVolumeClaimDefaults, persistentVolumeDefaults, storageClassDefaults } from './storageDefaults.ts';
import { mutatingWebhookConfigurationDefaults, validatingWebhookConfigurationDefaults } from './admissionDefaults.ts';
import { endpointSliceDefaults } from './discoveryDefaults.ts';
import { limitRangeDefaults } from './quotaDefaults.ts';
import { priorityClassDefaults } from './schedulingDefaults.ts';
import type { ResourceInfo } from './types.ts';

// Defaulting, as the API server applies it to every object it decodes (create, update, patch):
// the fields a controller sees filled in although nobody wrote them. A controller that compares
// its desired spec with the stored one must cope with these, so the sim fills the common ones:
// workloads, pod templates, containers and services. Defaulting is idempotent, so applying it on
// every write never changes an already-defaulted object (and never bumps generation by itself).
// Kinds outside workloads and services have their defaults in <area>Defaults.ts files.

function imagePullPolicy(image: unknown): string {
  if (typeof image !== 'string') return 'IfNotPresent';
  const lastSegment = image.slice(image.lastIndexOf('/') + 1);
  if (image.includes('@')) return 'IfNotPresent';
  const tag = lastSegment.includes(':') ? lastSegment.slice(lastSegment.indexOf(':') + 1) : '';
  return tag === '' || tag === 'latest' ? 'Always' : 'IfNotPresent';
}

function container(c: unknown): void {
  if (!isObj(c)) return;
  setDefault(c, 'imagePullPolicy', imagePullPolicy(c.image));
  setDefault(c, 'terminationMessagePath', '/dev/termination-log');
  setDefault(c, 'terminationMessagePolicy', 'File');
  setDefault(c, 'resources', {});
  if (Array.isArray(c.ports)) for (const p of c.ports) if (isObj(p)) setDefault(p, 'protocol', 'TCP');
}

function podSpec(spec: Obj, restartPolicy: string | null = 'Always'): void {
  if (restartPolicy) setDefault(spec, 'restartPolicy', restartPolicy);
  setDefault(spec, 'dnsPolicy', 'ClusterFirst');
  setDefault(spec, 'schedulerName', 'default-scheduler');
  setDefault(spec, 'securityContext', {});
  setDefault(spec, 'terminationGracePeriodSeconds', 30);
  for (const list of ['containers', 'initContainers']) {
    const cs = spec[list];
    if (Array.isArray(cs)) cs.forEach(container);
  }
}

function podTemplate(spec: Obj, restartPolicy: string | null = 'Always'): void {
  const template = spec.template;
  if (!isObj(template)) return;
  podSpec(obj(template, 'spec'), restartPolicy);
}

export function applyDefaults(info: Pick<ResourceInfo, 'group' | 'resource'>, o: KubeObject): void {
  const object = o as Obj;
  const key = `${info.group}/${info.resource}`;
  switch (key) {
    case '/pods':
      podSpec(obj(object, 'spec'));
      return;
    case '/services': {
      const spec = obj(object, 'spec');
      setDefault(spec, 'type', 'ClusterIP');
      setDefault(spec, 'sessionAffinity', 'None');
      if (spec.type !== 'ExternalName') {
        setDefault(spec, 'ipFamilies', ['IPv4']);
        setDefault(spec, 'ipFamilyPolicy', 'SingleStack');
        setDefault(spec, 'internalTrafficPolicy', 'Cluster');
      }
      if (Array.isArray(spec.ports)) {
        for (const p of spec.ports) {
          if (!isObj(p)) continue;
          setDefault(p, 'protocol', 'TCP');
          setDefault(p, 'targetPort', p.port);
        }
      }
      return;
    }
    case 'apps/deployments': {
      const spec = obj(object, 'spec');
      setDefault(spec, 'replicas', 1);
      setDefault(spec, 'revisionHistoryLimit', 10);
      setDefault(spec, 'progressDeadlineSeconds', 600);
      const strategy = obj(spec, 'strategy');
      setDefault(strategy, 'type', 'RollingUpdate');
      if (strategy.type === 'RollingUpdate') {
        const ru = obj(strategy, 'rollingUpdate');
        setDefault(ru, 'maxUnavailable', '25%');
        setDefault(ru, 'maxSurge', '25%');
      }
      podTemplate(spec);
      return;
    }
    case 'apps/replicasets': {
      const spec = obj(object, 'spec');
      setDefault(spec, 'replicas', 1);
      podTemplate(spec);
      return;
    }
    case 'apps/statefulsets': {
      const spec = obj(object, 'spec');
      setDefault(spec, 'replicas', 1);
      setDefault(spec, 'podManagementPolicy', 'OrderedReady');
      setDefault(spec, 'revisionHistoryLimit', 10);
      const strategy = obj(spec, 'updateStrategy');
      setDefault(strategy, 'type', 'RollingUpdate');
      if (strategy.type === 'RollingUpdate') setDefault(obj(strategy, 'rollingUpdate'), 'partition', 0);
      setDefault(spec, 'persistentVolumeClaimRetentionPolicy', { whenDeleted: 'Retain', whenScaled: 'Retain' });
      podTemplate(spec);
      return;
    }
    case 'apps/daemonsets': {
      const spec = obj(object, 'spec');
      setDefault(spec, 'revisionHistoryLimit', 10);
      const strategy = obj(spec, 'updateStrategy');
      setDefault(strategy, 'type', 'RollingUpdate');
      if (strategy.type === 'RollingUpdate') {
        const ru = obj(strategy, 'rollingUpdate');
        setDefault(ru, 'maxUnavailable', 1);
        setDefault(ru, 'maxSurge', 0);
      }
      podTemplate(spec);
      return;
    }
    case 'batch/jobs': {
      const spec = obj(object, 'spec');
      if (spec.parallelism === undefined && spec.completions === undefined) spec.completions = 1;
      setDefault(spec, 'parallelism', 1);
      setDefault(spec, 'backoffLimit', 6);
      setDefault(spec, 'completionMode', 'NonIndexed');
      setDefault(spec, 'suspend', false);
      // A Job's pods must say Never or OnFailure themselves: no restartPolicy default.
      podTemplate(spec, null);
      return;
    }
    case 'batch/cronjobs': {
      const spec = obj(object, 'spec');
      setDefault(spec, 'concurrencyPolicy', 'Allow');
      setDefault(spec, 'suspend', false);
      setDefault(spec, 'successfulJobsHistoryLimit', 3);
      setDefault(spec, 'failedJobsHistoryLimit', 1);
      // The job template gets pod defaults only: Job-level ones (completions, backoffLimit…)
      // are the Job's own, filled when the CronJob controller creates it.
      const jobTemplate = spec.jobTemplate;
      if (isObj(jobTemplate) && isObj(jobTemplate.spec)) podTemplate(jobTemplate.spec, null);
      return;
    }
    case '/persistentvolumeclaims':
      persistentVolumeClaimDefaults(object);
      return;
    case '/persistentvolumes':
      persistentVolumeDefaults(object);
      return;
    case '/podtemplates':
      podTemplate(object);
      return;
    case '/limitranges':
      limitRangeDefaults(object);
      return;
    case 'storage.k8s.io/storageclasses':
      storageClassDefaults(object);
      return;
    case 'scheduling.k8s.io/priorityclasses':
      priorityClassDefaults(object);
      return;
    case 'discovery.k8s.io/endpointslices':
      endpointSliceDefaults(object);
      return;
    case 'admissionregistration.k8s.io/validatingwebhookconfigurations':
      validatingWebhookConfigurationDefaults(object);
      return;
    case 'admissionregistration.k8s.io/mutatingwebhookconfigurations':
      mutatingWebhookConfigurationDefaults(object);
      return;
    case 'networking.k8s.io/networkpolicies':
      networkPolicyDefaults(object);
      return;
    case 'rbac.authorization.k8s.io/rolebindings':
    case 'rbac.authorization.k8s.io/clusterrolebindings':
      roleBindingDefaults(object);
      return;
    case 'autoscaling/horizontalpodautoscalers':
      horizontalPodAutoscalerDefaults(object);
      return;
  }
}
