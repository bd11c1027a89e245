import type { KubeObject } from '../../shared/k8s.ts';
import type { Obj } from './defaulting.ts';
import type { Cause } from '../../shared/apiErrors.ts';
import type { KindStrategy } from './kindStrategy.ts';
import type { KindModule } from './kindModule.ts';
import { col, containerCells, field, labelsText, NAME_COLUMN } from '../vocabulary/tableCells.ts';
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

export const podTemplateKind: KindModule = {
  api: { group: '', version: 'v1', resource: 'podtemplates', kind: 'PodTemplate' },
  strategy: podTemplateStrategy,
  generation: true,
  // No Age column: v1.28's printer has none for pod templates.
  columns: [
    NAME_COLUMN,
    col('Containers', (o) => containerCells(field(o, 'template.spec'), 'name'), 'string', 0, 'Names of each container in the template.'),
    col('Images', (o) => containerCells(field(o, 'template.spec'), 'image'), 'string', 0, 'Images referenced by each container in the template.'),
    col('Pod Labels', (o) => labelsText(field(o, 'template.metadata.labels')), 'string', 0, 'The labels for the pod template.'),
  ],
};
