import type { KubeObject } from '../../shared/k8s.ts';
import { jsonEqual } from '../jsonEqual.ts';
import { specChanged } from '../store/objectMeta.ts';
import type { KindStrategy } from './kindStrategy.ts';

// Deployments: annotations move `metadata.generation` as spec changes do, because the deployment
// controller copies them to the ReplicaSets; a /status write may change annotations without moving
// it, which is how that controller records the revision (pkg/registry/apps/deployment/strategy.go).

export const deploymentStrategy: KindStrategy = {
  prepareForStatusUpdate(next: KubeObject, body: Readonly<KubeObject>): void {
    const annotations = body.metadata?.annotations;
    if (annotations === undefined) delete next.metadata.annotations;
    else next.metadata.annotations = structuredClone(annotations);
  },

  generationChanged(before: Readonly<KubeObject>, after: Readonly<KubeObject>): boolean {
    return specChanged(before, after) || !jsonEqual(before.metadata.annotations ?? {}, after.metadata.annotations ?? {});
  },
};
