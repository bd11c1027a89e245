import type { KubeObject } from '../../shared/k8s.ts';
import { obj, setDefault, type Obj } from './defaulting.ts';
import type { Cause } from '../../shared/apiErrors.ts';
import { validateLabelsAndAnnotations } from '../vocabulary/metadataValidation.ts';
import { forbidden, invalid, isRecord, notSupported, required, sameValue } from './fieldErrors.ts';
import type { KindStrategy } from './kindStrategy.ts';
import type { KindModule } from './kindModule.ts';
import { replicasReady, WORKLOAD_WIDE } from './workloadColumns.ts';
import { AGE_COLUMN, col, NAME_COLUMN } from '../vocabulary/tableCells.ts';
import { defaultPodTemplate } from './podSpec.ts';
import { nonNegativeFields, specOf, validateLongRunningTemplate, validateRequiredSelector, validateSelectorMatchesTemplate, type Spec } from './workloadSpec.ts';
import { validateWorkloadStatus } from './workloadStatusValidation.ts';

// StatefulSets (apps/v1): ValidateStatefulSetSpec — which checks the template's labels but not
// its pod spec — and updates that may change only replicas, ordinals, template, updateStrategy,
// persistentVolumeClaimRetentionPolicy and minReadySeconds.

const UPDATABLE = ['replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds'];

function validateUpdateStrategy(spec: Spec): Cause[] {
  const strategy = isRecord(spec.updateStrategy) ? spec.updateStrategy : {};
  switch (strategy.type ?? '') {
    case '':
      return [required('spec.updateStrategy')];
    case 'OnDelete':
      return strategy.rollingUpdate ? [invalid('spec.updateStrategy.rollingUpdate', strategy.rollingUpdate, "only allowed for updateStrategy 'RollingUpdate'")] : [];
    case 'RollingUpdate': {
      const ru = isRecord(strategy.rollingUpdate) ? strategy.rollingUpdate : {};
      return typeof ru.partition === 'number' && ru.partition < 0 ? [invalid('spec.updateStrategy.rollingUpdate.partition', ru.partition, 'must be greater than or equal to 0')] : [];
    }
    default:
      return [invalid('spec.updateStrategy', strategy, "must be 'RollingUpdate' or 'OnDelete'")];
  }
}

function validateRetentionPolicy(spec: Spec): Cause[] {
  const policy = spec.persistentVolumeClaimRetentionPolicy;
  if (!isRecord(policy)) return [];
  return ['whenDeleted', 'whenScaled'].flatMap((f) => (policy[f] === 'Retain' || policy[f] === 'Delete' ? [] : [notSupported(`spec.persistentVolumeClaimRetentionPolicy.${f}`, policy[f] ?? '', ['Retain', 'Delete'])]));
}

export const statefulSetStrategy: KindStrategy = {
  validateStatusUpdate: (_before: Readonly<KubeObject>, after: Readonly<KubeObject>): Cause[] => validateWorkloadStatus('StatefulSet', after),

  defaults(o: KubeObject): void {
    const spec = obj(o as Obj, 'spec');
    setDefault(spec, 'replicas', 1);
    setDefault(spec, 'podManagementPolicy', 'OrderedReady');
    setDefault(spec, 'revisionHistoryLimit', 10);
    const strategy = obj(spec, 'updateStrategy');
    setDefault(strategy, 'type', 'RollingUpdate');
    if (strategy.type === 'RollingUpdate') setDefault(obj(strategy, 'rollingUpdate'), 'partition', 0);
    setDefault(spec, 'persistentVolumeClaimRetentionPolicy', { whenDeleted: 'Retain', whenScaled: 'Retain' });
    defaultPodTemplate(spec);
    // Each claim template is defaulted as a PersistentVolumeClaim is (with its type and a Pending status).
    if (Array.isArray(spec.volumeClaimTemplates)) {
      for (const claim of spec.volumeClaimTemplates) {
        if (!isRecord(claim)) continue;
        setDefault(claim as Obj, 'apiVersion', 'v1');
        setDefault(claim as Obj, 'kind', 'PersistentVolumeClaim');
        setDefault(obj(claim as Obj, 'spec'), 'volumeMode', 'Filesystem');
        setDefault(obj(claim as Obj, 'status'), 'phase', 'Pending');
      }
    }
  },

  validate(o: Readonly<KubeObject>): Cause[] {
    const spec = specOf(o);
    const causes: Cause[] = [];
    const policy = spec.podManagementPolicy ?? '';
    if (policy === '') causes.push(required('spec.podManagementPolicy'));
    else if (policy !== 'OrderedReady' && policy !== 'Parallel') causes.push(invalid('spec.podManagementPolicy', policy, "must be 'OrderedReady' or 'Parallel'"));
    causes.push(...validateUpdateStrategy(spec), ...validateRetentionPolicy(spec));
    causes.push(...nonNegativeFields(spec, ['replicas', 'minReadySeconds']));
    causes.push(...validateRequiredSelector(spec, 'statefulset'));
    causes.push(...validateSelectorMatchesTemplate(spec));
    const template = isRecord(spec.template) ? spec.template : {};
    const meta = isRecord(template.metadata) ? template.metadata : {};
    causes.push(...validateLabelsAndAnnotations(meta.labels, meta.annotations, 'spec.template'));
    causes.push(...validateLongRunningTemplate(spec, 'StatefulSet'));
    return causes;
  },

  validateUpdate(before: Readonly<KubeObject>, after: Readonly<KubeObject>): Cause[] {
    const a = specOf(after);
    const b = specOf(before);
    const changed = Object.keys({ ...a, ...b }).some((k) => !UPDATABLE.includes(k) && !sameValue(a[k], b[k]));
    return changed ? [forbidden('spec', "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden")] : [];
  },
};

export const statefulSetKind: KindModule = {
  api: { group: 'apps', version: 'v1', resource: 'statefulsets', kind: 'StatefulSet', shortNames: ['sts'], categories: ['all'], status: true, scale: true },
  strategy: statefulSetStrategy,
  generation: true,
  zeroStatus: () => ({ replicas: 0, availableReplicas: 0 }),
  columns: [NAME_COLUMN, col('Ready', replicasReady), AGE_COLUMN, ...WORKLOAD_WIDE.slice(0, 2)],
};
