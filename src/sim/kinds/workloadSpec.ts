import type { KubeObject } from '../../shared/k8s.ts';
import type { Cause } from '../../shared/apiErrors.ts';
import { forbidden, invalid, isRecord, nonNegative, notSupported, required } from './fieldErrors.ts';
import { invalidSelector, selectorIsEmpty, selectorMatches, validateLabelSelector } from './labelSelectorObject.ts';
import { templateLabels, validatePodTemplate } from './podSpec.ts';

// What Deployments, ReplicaSets, StatefulSets and DaemonSets check alike (pkg/apis/apps/validation):
// a selector that selects something and matches the template's labels, and a template whose pods
// run forever (restartPolicy Always, no activeDeadlineSeconds).

export type Spec = Record<string, unknown>;

export function specOf(obj: Readonly<KubeObject>): Spec {
  return isRecord(obj.spec) ? obj.spec : {};
}

/** spec.selector: required, well formed and not empty (`word` as the API server names the kind in its message). */
export function validateRequiredSelector(spec: Spec, word: string): Cause[] {
  if (spec.selector === undefined || spec.selector === null) return [required('spec.selector')];
  const causes = validateLabelSelector(spec.selector, 'spec.selector');
  if (selectorIsEmpty(spec.selector)) causes.push(invalidSelector('spec.selector', spec.selector, `empty selector is invalid for ${word}`));
  return causes;
}

/** The template's labels must be selected (a missing selector selects nothing; an empty one is reported on its own). */
export function validateSelectorMatchesTemplate(spec: Spec, field = 'spec.template.metadata.labels'): Cause[] {
  const selector = spec.selector;
  if (selector !== undefined && selector !== null && selectorIsEmpty(selector)) return [];
  const labels = templateLabels(spec.template);
  const matches = selector !== undefined && selector !== null && selectorMatches(selector, labels);
  if (matches) return [];
  const why = '`selector` does not match template `labels`';
  // Go prints a template without labels as a nil map.
  return [labels === undefined || labels === null ? { reason: 'FieldValueInvalid', field, message: `Invalid value: map[string]string(nil): ${why}` } : invalid(field, labels, why)];
}

/** Pods that run forever: restartPolicy Always and no activeDeadlineSeconds. */
export function validateLongRunningTemplate(spec: Spec, kind: string): Cause[] {
  const podSpec = isRecord(spec.template) && isRecord(spec.template.spec) ? spec.template.spec : {};
  const causes: Cause[] = [];
  if (podSpec.restartPolicy !== 'Always') causes.push(notSupported('spec.template.spec.restartPolicy', podSpec.restartPolicy ?? '', ['Always']));
  if (podSpec.activeDeadlineSeconds !== undefined && podSpec.activeDeadlineSeconds !== null) {
    causes.push(forbidden('spec.template.spec.activeDeadlineSeconds', `activeDeadlineSeconds in ${kind} is not Supported`));
  }
  return causes;
}

/** ValidatePodTemplateSpecForReplicaSet: selector match, the template itself, then long-running pods. */
export function validateReplicaSetTemplate(spec: Spec, kind: string): Cause[] {
  return [
    ...validateSelectorMatchesTemplate(spec),
    ...validatePodTemplate(spec.template, 'spec.template'),
    ...validateLongRunningTemplate(spec, kind),
  ];
}

export function nonNegativeFields(spec: Spec, fields: readonly string[]): Cause[] {
  return fields.flatMap((f) => nonNegative(`spec.${f}`, spec[f]));
}
