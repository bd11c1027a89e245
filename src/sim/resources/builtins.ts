import { BUILTIN_KINDS } from '../kinds/index.ts';
import { resourceInfoOf } from '../kinds/kindModule.ts';
import type { ResourceInfo } from '../vocabulary/resourceInfo.ts';

// The built-in kinds the simulated cluster serves, as the registry records them: one per kind
// module (src/sim/kinds/builtinKinds.ts), with the discovery data a v1.28 kube-apiserver reports
// for them.

export { ALL_VERBS, storageVersionHash } from '../kinds/kindModule.ts';

export function builtinResources(): ResourceInfo[] {
  return BUILTIN_KINDS.map((m) => resourceInfoOf(m.api));
}
