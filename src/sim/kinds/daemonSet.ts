import type { KubeObject } from '../../shared/k8s.ts';
import { obj, setDefault, type Obj } from './defaulting.ts';
import type { Cause } from '../../shared/apiErrors.ts';
import { isRecord, notSupported, required } from './fieldErrors.ts';
import type { KindStrategy } from './kindStrategy.ts';
import type { KindModule } from './kindModule.ts';
import { jsonEqual } from '../vocabulary/jsonEqual.ts';
import { cloneJson } from '../../shared/cloneJson.ts';
import { encodeAsGo } from '../goTypes/goEncoding.ts';
import { AGE_COLUMN, col, field, labelsText, NAME_COLUMN, num } from '../vocabulary/tableCells.ts';
import { WORKLOAD_WIDE } from './workloadColumns.ts';
import { immutableSelector, invalidSelector, selectorIsEmpty, validateLabelSelector } from './labelSelectorObject.ts';
import { defaultPodTemplate, validatePodTemplate } from './podSpec.ts';
import { nonNegativeFields, specOf, validateLongRunningTemplate, validateSelectorMatchesTemplate, type Spec } from './workloadSpec.ts';
import { validateWorkloadStatus } from './workloadStatusValidation.ts';

// DaemonSets (apps/v1): ValidateDaemonSetSpec — a missing selector shows as a template that does
// not match it — and a selector that never changes.

function validateUpdateStrategy(spec: Spec): Cause[] {
  const strategy = isRecord(spec.updateStrategy) ? spec.updateStrategy : {};
  if (strategy.type === 'OnDelete') return [];
  if (strategy.type === 'RollingUpdate') return isRecord(strategy.rollingUpdate) ? [] : [required('spec.updateStrategy.rollingUpdate')];
  return [notSupported('spec.updateStrategy', strategy, ['OnDelete', 'RollingUpdate'])];
}

export const daemonSetStrategy: KindStrategy = {
  validateStatusUpdate: (_before: Readonly<KubeObject>, after: Readonly<KubeObject>): Cause[] => validateWorkloadStatus('DaemonSet', after),

  defaults(o: KubeObject): void {
    const spec = obj(o as Obj, 'spec');
    setDefault(spec, 'revisionHistoryLimit', 10);
    const strategy = obj(spec, 'updateStrategy');
    setDefault(strategy, 'type', 'RollingUpdate');
    if (strategy.type === 'RollingUpdate') {
      const ru = obj(strategy, 'rollingUpdate');
      setDefault(ru, 'maxUnavailable', 1);
      setDefault(ru, 'maxSurge', 0);
    }
    defaultPodTemplate(spec);
  },

  validate(o: Readonly<KubeObject>): Cause[] {
    const spec = specOf(o);
    const causes = validateLabelSelector(spec.selector, 'spec.selector');
    causes.push(...validateSelectorMatchesTemplate(spec));
    if (isRecord(spec.selector) && selectorIsEmpty(spec.selector)) causes.push(invalidSelector('spec.selector', spec.selector, 'empty selector is invalid for daemonset'));
    causes.push(...validatePodTemplate(spec.template, 'spec.template'));
    causes.push(...validateLongRunningTemplate(spec, 'DaemonSet'));
    causes.push(...nonNegativeFields(spec, ['minReadySeconds', 'templateGeneration']));
    causes.push(...validateUpdateStrategy(spec));
    causes.push(...nonNegativeFields(spec, ['revisionHistoryLimit']));
    return causes;
  },

  validateUpdate(before: Readonly<KubeObject>, after: Readonly<KubeObject>): Cause[] {
    return immutableSelector('spec.selector', specOf(before).selector, specOf(after).selector);
  },

  // The template's generation, which v1 keeps in an annotation: 1 on create, one more each time the template changes.
  prepareForCreate(o: KubeObject): void {
    o.metadata.annotations = { ...o.metadata.annotations, [TEMPLATE_GENERATION]: '1' };
  },

  prepareForUpdate(before: Readonly<KubeObject>, next: KubeObject): void {
    const was = Number(before.metadata.annotations?.[TEMPLATE_GENERATION] ?? 0) || 0;
    // Compared as stored: the stored template is in Go's encoding, the request's not yet.
    const changed = !jsonEqual(specOf(before).template ?? null, specOf(encodeAsGo(cloneJson(next))).template ?? null);
    next.metadata.annotations = { ...next.metadata.annotations, [TEMPLATE_GENERATION]: String(changed ? was + 1 : was) };
  },
};

const TEMPLATE_GENERATION = 'deprecated.daemonset.template.generation';

export const daemonSetKind: KindModule = {
  api: { group: 'apps', version: 'v1', resource: 'daemonsets', kind: 'DaemonSet', shortNames: ['ds'], categories: ['all'], status: true },
  strategy: daemonSetStrategy,
  generation: true,
  zeroStatus: () => ({ currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 }),
  columns: [
    NAME_COLUMN,
    col('Desired', (o) => num(o, 'status.desiredNumberScheduled'), 'integer'),
    col('Current', (o) => num(o, 'status.currentNumberScheduled'), 'integer'),
    col('Ready', (o) => num(o, 'status.numberReady'), 'integer'),
    col('Up-to-date', (o) => num(o, 'status.updatedNumberScheduled'), 'integer', 0, 'The total number of nodes that are running updated daemon pod'),
    col('Available', (o) => num(o, 'status.numberAvailable'), 'integer', 0, 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)'),
    col('Node Selector', (o) => labelsText(field(o, 'spec.template.spec.nodeSelector')), 'string', 0, "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/"),
    AGE_COLUMN,
    ...WORKLOAD_WIDE,
  ],
};
