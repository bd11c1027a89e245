import type { KindModule } from './kindModule.ts';

// autoscaling/v1 HorizontalPodAutoscalers: the stored autoscaling/v2 ones seen through v1's fields
// (src/sim/resources/hpaV1.ts converts, src/sim/server/convertedVersionHandler.ts serves them), as
// `kubectl autoscale` and v1-era controllers use them.

export const horizontalPodAutoscalerV1Kind: KindModule = {
  api: { group: 'autoscaling', version: 'v1', resource: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', shortNames: ['hpa'], categories: ['all'], status: true, storedAs: 'v2' },
};
