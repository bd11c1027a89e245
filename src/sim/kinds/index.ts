import { certificateSigningRequestStrategy } from './certificateSigningRequest.ts';
import { configMapStrategy } from './configMap.ts';
import { deploymentStrategy } from './deployment.ts';
import type { KindStrategy } from './kindStrategy.ts';
import { secretStrategy } from './secret.ts';

// The kinds with rules of their own, by `group/resource`; every other kind takes the defaults.

export type { KindStrategy } from './kindStrategy.ts';

const STRATEGIES: Record<string, KindStrategy> = {
  '/configmaps': configMapStrategy,
  '/secrets': secretStrategy,
  'apps/deployments': deploymentStrategy,
  'certificates.k8s.io/certificatesigningrequests': certificateSigningRequestStrategy,
};

const NONE: KindStrategy = {};

export function strategyFor(info: { group: string; resource: string; source?: string }): KindStrategy {
  if (info.source === 'crd') return NONE;
  return STRATEGIES[`${info.group}/${info.resource}`] ?? NONE;
}
