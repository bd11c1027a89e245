import type { KindModule } from './kindModule.ts';

// The older form of pods/binding (core v1 Binding): create-only, nothing of its own stored; the
// server binds the pod it names (src/sim/server/subresources).

export const bindingKind: KindModule = {
  api: { group: '', version: 'v1', resource: 'bindings', kind: 'Binding', virtual: true },
};
