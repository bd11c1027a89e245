import type { KubeObject } from '../../shared/k8s.ts';
import type { Obj } from '../resources/defaulting.ts';
import type { Cause } from '../../shared/apiErrors.ts';
import type { KindStrategy } from './kindStrategy.ts';
import { defaultPodTemplate, validatePodTemplate } from './podSpec.ts';

// PodTemplates: a pod template stored on its own (`template` at the top level), defaulted and
// validated as a workload's is.

export const podTemplateStrategy: KindStrategy = {
  defaults(o: KubeObject): void {
    defaultPodTemplate(o as Obj);
  },

  validate(o: Readonly<KubeObject>): Cause[] {
    return validatePodTemplate(o.template, 'template');
  },
};
