import type { KubeObject } from '../../shared/k8s.ts';
import { jsonEqual } from '../jsonEqual.ts';
import { specChanged } from '../store/objectMeta.ts';
import type { KindStrategy } from './kindStrategy.ts';

// Deployments: annotations move `metadata.generation` as spec changes do, because the deployment
// controller copies them to the ReplicaSets (pkg/registry/apps/deployment/strategy.go).

export const deploymentStrategy: KindStrategy = {
  generationChanged(before: Readonly<KubeObject>, after: Readonly<KubeObject>): boolean {
    return specChanged(before, after) || !jsonEqual(before.metadata.annotations ?? {}, after.metadata.annotations ?? {});
  },
};
