import type { KubeObject } from '../../shared/k8s.ts';
import { horizontalPodAutoscalerDefaults } from './autoscalingDefaults.ts';
import type { Obj } from './defaulting.ts';
import { networkPolicyDefaults } from './networkingDefaults.ts';
import { storageClassDefaults } from './storageDefaults.ts';
import { mutatingWebhookConfigurationDefaults, validatingWebhookConfigurationDefaults } from './admissionDefaults.ts';
import { endpointSliceDefaults } from './discoveryDefaults.ts';
import { limitRangeDefaults } from './quotaDefaults.ts';
import { priorityClassDefaults } from './schedulingDefaults.ts';
import type { ResourceInfo } from './types.ts';

// Defaulting, as the API server applies it to every object it decodes (create, update, patch):
// the fields a controller sees filled in although nobody wrote them. A controller that compares
// its desired spec with the stored one must cope with these. Defaulting is idempotent, so applying
// it on every write never changes an already-defaulted object (and never bumps generation by
// itself). Kinds with a module in src/sim/kinds (workloads, pods, services, claims, bindings) have
// their defaults there; this table serves the others, from <area>Defaults.ts files.

export function applyDefaults(info: Pick<ResourceInfo, 'group' | 'resource'>, o: KubeObject): void {
  const object = o as Obj;
  const key = `${info.group}/${info.resource}`;
  switch (key) {
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
    case 'autoscaling/horizontalpodautoscalers':
      horizontalPodAutoscalerDefaults(object);
      return;
  }
}
