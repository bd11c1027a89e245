import type { Cause } from '../../shared/apiErrors.ts';
import { obj, setDefault, type Obj } from './defaulting.ts';
import { invalid, isRecord, required } from './fieldErrors.ts';
import type { KindModule } from './kindModule.ts';
import type { KindStrategy } from './kindStrategy.ts';
import { defaultPodTemplate, templateLabels, validatePodTemplate } from './podSpec.ts';
import { nonNegativeFields, specOf, validateLongRunningTemplate } from './workloadSpec.ts';
import { AGE_COLUMN, col, containerCells, field, NAME_COLUMN, num } from '../vocabulary/tableCells.ts';

// ReplicationControllers (core/v1), the ReplicaSet's ancestor: the selector is a plain map of
// labels, not a LabelSelector, and defaults to the template's labels, as the object's own labels do
// (SetDefaults_ReplicationController). ValidateReplicationController[Spec]; unlike a ReplicaSet's,
// the selector may change.

type Labels = Record<string, string>;

const labelsOf = (v: unknown): Labels | undefined => (isRecord(v) ? (v as Labels) : undefined);
const isEmpty = (v: Labels | undefined): boolean => !v || Object.keys(v).length === 0;

/** labels.FormatLabels: `k=v` pairs sorted by key, `<none>` for none. */
export function formatLabelSet(set: unknown): string {
  const labels = labelsOf(set);
  if (isEmpty(labels)) return '<none>';
  return Object.keys(labels!).sort().map((k) => `${k}=${labels![k]}`).join(',');
}

export const replicationControllerStrategy: KindStrategy = {
  defaults(o): void {
    const spec = obj(o as Obj, 'spec');
    const labels = labelsOf(templateLabels(spec['template']));
    if (labels) {
      if (isEmpty(labelsOf(spec['selector']))) spec['selector'] = { ...labels };
      if (isEmpty(labelsOf(o.metadata.labels))) o.metadata.labels = { ...labels };
    }
    setDefault(spec, 'replicas', 1);
    if (isRecord(spec['template'])) defaultPodTemplate(spec);
  },

  validate(o): Cause[] {
    const spec = specOf(o);
    const causes = nonNegativeFields(spec, ['minReadySeconds']);
    const selector = labelsOf(spec['selector']);
    if (isEmpty(selector)) causes.push(required('spec.selector'));
    causes.push(...nonNegativeFields(spec, ['replicas']));
    if (!isRecord(spec['template'])) return [...causes, required('spec.template')];
    const labels = labelsOf(templateLabels(spec['template'])) ?? {};
    if (!isEmpty(selector) && !Object.entries(selector!).every(([k, v]) => labels[k] === v)) {
      causes.push(invalid('spec.template.metadata.labels', labels, '`selector` does not match template `labels`'));
    }
    causes.push(...validatePodTemplate(spec['template'], 'spec.template'), ...validateLongRunningTemplate(spec, 'ReplicationController'));
    return causes;
  },
};

export const replicationControllerKind: KindModule = {
  api: { group: '', version: 'v1', resource: 'replicationcontrollers', kind: 'ReplicationController', shortNames: ['rc'], categories: ['all'], status: true, scale: true, scaleSelector: 'labels' },
  strategy: replicationControllerStrategy,
  generation: true,
  zeroStatus: () => ({ replicas: 0 }),
  columns: [
    NAME_COLUMN,
    col('Desired', (o) => num(o, 'spec.replicas'), 'integer'),
    col('Current', (o) => num(o, 'status.replicas'), 'integer'),
    col('Ready', (o) => num(o, 'status.readyReplicas'), 'integer'),
    AGE_COLUMN,
    col('Containers', (o) => containerCells(field(o, 'spec.template.spec'), 'name'), 'string', 1),
    col('Images', (o) => containerCells(field(o, 'spec.template.spec'), 'image'), 'string', 1),
    col('Selector', (o) => formatLabelSet(field(o, 'spec.selector')), 'string', 1),
  ],
};
