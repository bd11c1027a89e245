import type { KindModule } from './kindModule.ts';
import { storageVersionHash } from './kindModule.ts';

// events.k8s.io/v1 Events: the same storage as core v1 Events, under other field names
// (src/sim/resources/eventsV1.ts converts, src/sim/server/convertedVersionHandler.ts serves them).

export const eventV1Kind: KindModule = {
  api: { group: 'events.k8s.io', version: 'v1', resource: 'events', kind: 'Event', shortNames: ['ev'], storageVersionHash: storageVersionHash('', 'v1', 'Event') },
};
