import type { KubeObject } from '../../shared/k8s.ts';
import { jsonEqual } from '../vocabulary/jsonEqual.ts';
import { obj, setDefault, type Obj } from './defaulting.ts';
import type { Cause } from '../../shared/apiErrors.ts';
import { specChanged } from '../vocabulary/objectMeta.ts';
import { forbidden, invalid, isRecord, notSupported, required } from './fieldErrors.ts';
import type { KindStrategy } from './kindStrategy.ts';
import type { KindModule } from './kindModule.ts';
import { replicasReady, WORKLOAD_WIDE } from './workloadColumns.ts';
import { AGE_COLUMN, col, NAME_COLUMN, num } from '../vocabulary/tableCells.ts';
import { immutableSelector } from './labelSelectorObject.ts';
import { defaultPodTemplate } from './podSpec.ts';
import { nonNegativeFields, specOf, validateReplicaSetTemplate, validateRequiredSelector, type Spec } from './workloadSpec.ts';
import { validateWorkloadStatus } from './workloadStatusValidation.ts';

// Deployments (apps/v1): the defaults of SetDefaults_Deployment, ValidateDeploymentSpec, a selector
// that never changes, and a generation that annotations move as spec changes do, because the
// deployment controller copies them to the ReplicaSets; a /status write may change annotations
// without moving it, which is how that controller records the revision
// (pkg/registry/apps/deployment/strategy.go).

function percentOrInt(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^\d+%$/.test(v)) return Number(v.slice(0, -1));
  return 0;
}

function validateStrategy(spec: Spec): Cause[] {
  const strategy = isRecord(spec.strategy) ? spec.strategy : {};
  switch (strategy.type) {
    case 'Recreate':
      return strategy.rollingUpdate ? [forbidden('spec.strategy.rollingUpdate', "may not be specified when strategy `type` is 'Recreate'")] : [];
    case 'RollingUpdate': {
      const ru = strategy.rollingUpdate;
      if (!isRecord(ru)) return [required('spec.strategy.rollingUpdate', 'this should be defaulted and never be nil')];
      const causes: Cause[] = [];
      for (const f of ['maxUnavailable', 'maxSurge']) {
        if (typeof ru[f] === 'number' && (ru[f] as number) < 0) causes.push(invalid(`spec.strategy.rollingUpdate.${f}`, ru[f], 'must be greater than or equal to 0'));
      }
      if (percentOrInt(ru.maxUnavailable) === 0 && percentOrInt(ru.maxSurge) === 0) causes.push(invalid('spec.strategy.rollingUpdate.maxUnavailable', ru.maxUnavailable, 'may not be 0 when `maxSurge` is 0'));
      if (percentOrInt(ru.maxUnavailable) > 100 && typeof ru.maxUnavailable === 'string') causes.push(invalid('spec.strategy.rollingUpdate.maxUnavailable', ru.maxUnavailable, 'must not be greater than 100%'));
      return causes;
    }
    default:
      return [notSupported('spec.strategy', strategy, ['Recreate', 'RollingUpdate'])];
  }
}

export const deploymentStrategy: KindStrategy = {
  validateStatusUpdate: (_before: Readonly<KubeObject>, after: Readonly<KubeObject>): Cause[] => validateWorkloadStatus('Deployment', after),

  defaults(o: KubeObject): void {
    const spec = obj(o as Obj, 'spec');
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
    defaultPodTemplate(spec);
  },

  validate(o: Readonly<KubeObject>): Cause[] {
    const spec = specOf(o);
    const causes = [
      ...nonNegativeFields(spec, ['replicas']),
      ...validateRequiredSelector(spec, 'deployment'),
      ...validateReplicaSetTemplate(spec, 'ReplicaSet'),
      ...validateStrategy(spec),
      ...nonNegativeFields(spec, ['minReadySeconds', 'revisionHistoryLimit', 'progressDeadlineSeconds']),
    ];
    const deadline = spec.progressDeadlineSeconds;
    if (typeof deadline === 'number' && deadline <= (typeof spec.minReadySeconds === 'number' ? spec.minReadySeconds : 0)) {
      causes.push(invalid('spec.progressDeadlineSeconds', deadline, 'must be greater than minReadySeconds'));
    }
    return causes;
  },

  validateUpdate(before: Readonly<KubeObject>, after: Readonly<KubeObject>): Cause[] {
    return immutableSelector('spec.selector', specOf(before).selector, specOf(after).selector);
  },

  statusKeepsMetadata: ['labels'],

  generationChanged(before: Readonly<KubeObject>, after: Readonly<KubeObject>): boolean {
    return specChanged(before, after) || !jsonEqual(before.metadata.annotations ?? {}, after.metadata.annotations ?? {});
  },
};

export const deploymentKind: KindModule = {
  api: { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', shortNames: ['deploy'], categories: ['all'], status: true, scale: true },
  strategy: deploymentStrategy,
  generation: true,
  zeroStatus: () => ({}),
  columns: [
    NAME_COLUMN,
    col('Ready', replicasReady),
    col('Up-to-date', (o) => num(o, 'status.updatedReplicas')),
    col('Available', (o) => num(o, 'status.availableReplicas')),
    AGE_COLUMN,
    ...WORKLOAD_WIDE,
  ],
};
