import { createSharedInformer } from '../../src/informer/index.ts';
import type { ListerWatcher, Probe, SharedIndexInformer, SharedInformerOptions } from '../../src/informer/index.ts';
import type { KubeObject } from '../../src/shared/k8s.ts';

// The informer under test with a handler that writes down what a controller would be told, in the
// order it is told: `add ns/a 3` (`add*` from the first list), `update ns/a 4 <- 3`, `delete ns/a 5`,
// and `delete? ns/a 4` for a delete the informer only learned of by relisting (client-go's
// DeletedFinalStateUnknown: the object is the last state the cache had).

export interface RecordedInformer {
  informer: SharedIndexInformer;
  log: string[];
  probes: Probe[];
  errors: unknown[];
  /** The probes since `from` of one kind. */
  probesOf<K extends Probe['kind']>(kind: K, from?: number): Extract<Probe, { kind: K }>[];
}

const keyRv = (o: { metadata: { namespace?: string | undefined; name?: string | undefined; resourceVersion?: string | undefined } }): string =>
  `${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name} ${o.metadata.resourceVersion}`;

export function recordedInformer(name: string, listerWatcher: ListerWatcher, options: Partial<SharedInformerOptions> = {}): RecordedInformer {
  const informer = createSharedInformer<KubeObject>({ name, listerWatcher, ...options });
  const log: string[] = [];
  const probes: Probe[] = [];
  const errors: unknown[] = [];
  informer.onProbe((p) => probes.push(p));
  informer.onError((e) => errors.push(e));
  informer.addEventHandler(
    {
      onAdd: (o, initial) => void log.push(`add${initial ? '*' : ''} ${keyRv(o)}`),
      onUpdate: (old, o) => void log.push(`update ${keyRv(o)}${old === o ? ' (sync)' : ` <- ${old.metadata.resourceVersion}`}`),
      onDelete: (o, unknown) => void log.push(`delete${unknown ? '?' : ''} ${keyRv(o)}`),
    },
    { name: 'recorder' },
  );
  return {
    informer,
    log,
    probes,
    errors,
    probesOf: <K extends Probe['kind']>(kind: K, from = 0) => probes.slice(from).filter((p): p is Extract<Probe, { kind: K }> => p.kind === kind),
  };
}

export const logLine = {
  add: (o: KubeObject) => `add ${keyRv(o)}`,
  update: (old: KubeObject, o: KubeObject) => `update ${keyRv(o)} <- ${old.metadata.resourceVersion}`,
  tombstone: (o: KubeObject) => `delete? ${keyRv(o)}`,
};
