import type { Cause } from '../../shared/apiErrors.ts';
import { obj, setDefault, type Obj } from './defaulting.ts';
import { duplicate, immutable, invalid, notSupported, records, required } from './fieldErrors.ts';
import type { KindModule } from './kindModule.ts';
import type { KindStrategy } from './kindStrategy.ts';
import { AGE_COLUMN, col, field, NAME_COLUMN, type Obj as Row } from '../vocabulary/tableCells.ts';

// CSIDrivers (storage.k8s.io/v1): what a CSI volume driver tells the kubelet and the scheduler
// about itself (SetDefaults_CSIDriver, ValidateCSIDriver[Update]). Whether it attaches, gets pod
// information on mount, its fsGroup policy and lifecycle modes are fixed once it is registered.

const FS_GROUP_POLICIES = ['File', 'None', 'ReadWriteOnceWithFSType'];
const LIFECYCLE_MODES = ['Persistent', 'Ephemeral'];
const MIN_TOKEN_SECONDS = 600;

function validateTokenRequests(requests: unknown): Cause[] {
  const causes: Cause[] = [];
  const audiences = new Set<string>();
  records(requests).forEach((r, i) => {
    const path = `spec.tokenRequests[${i}]`;
    const audience = String(r['audience'] ?? '');
    if (audiences.has(audience)) {
      causes.push(duplicate(`${path}.audience`, audience));
      return;
    }
    audiences.add(audience);
    const seconds = r['expirationSeconds'];
    if (typeof seconds !== 'number') return;
    if (seconds < MIN_TOKEN_SECONDS) causes.push(invalid(`${path}.expirationSeconds`, seconds, 'may not specify a duration less than 10 minutes'));
    if (seconds > 2 ** 32) causes.push(invalid(`${path}.expirationSeconds`, seconds, 'may not specify a duration larger than 2^32 seconds'));
  });
  return causes;
}

const specOf = (o: Readonly<Obj>): Record<string, unknown> => (o['spec'] ?? {}) as Record<string, unknown>;

export const csiDriverStrategy: KindStrategy = {
  defaults(o): void {
    const spec = obj(o as Obj, 'spec');
    setDefault(spec, 'attachRequired', true);
    setDefault(spec, 'podInfoOnMount', false);
    setDefault(spec, 'storageCapacity', false);
    setDefault(spec, 'fsGroupPolicy', 'ReadWriteOnceWithFSType');
    if (!Array.isArray(spec['volumeLifecycleModes']) || spec['volumeLifecycleModes'].length === 0) spec['volumeLifecycleModes'] = ['Persistent'];
    setDefault(spec, 'requiresRepublish', false);
    // SELinuxMountReadWriteOncePod is on in v1.28.
    setDefault(spec, 'seLinuxMount', false);
  },

  validate(o): Cause[] {
    const spec = specOf(o);
    // The field is named attachedRequired in the server's errors.
    const causes = ['attachRequired', 'podInfoOnMount', 'storageCapacity'].filter((f) => typeof spec[f] !== 'boolean').map((f) => required(`spec.${f === 'attachRequired' ? 'attachedRequired' : f}`));
    if (spec['fsGroupPolicy'] !== undefined && !FS_GROUP_POLICIES.includes(String(spec['fsGroupPolicy']))) causes.push(notSupported('spec.fsGroupPolicy', spec['fsGroupPolicy'], FS_GROUP_POLICIES));
    causes.push(...validateTokenRequests(spec['tokenRequests']));
    const modes = Array.isArray(spec['volumeLifecycleModes']) ? spec['volumeLifecycleModes'] : [];
    for (const mode of modes) if (!LIFECYCLE_MODES.includes(String(mode))) causes.push(notSupported('spec.volumeLifecycleModes', mode, LIFECYCLE_MODES));
    return causes;
  },

  validateUpdate(before, after): Cause[] {
    const [was, now] = [specOf(before), specOf(after)];
    return [
      ...immutable('spec.attachedRequired', was['attachRequired'], now['attachRequired']),
      ...immutable('spec.fsGroupPolicy', was['fsGroupPolicy'], now['fsGroupPolicy']),
      ...immutable('spec.podInfoOnMount', was['podInfoOnMount'], now['podInfoOnMount']),
      ...immutable('spec.volumeLifecycleModes', was['volumeLifecycleModes'], now['volumeLifecycleModes']),
    ];
  },
};

/** printCSIDriver's flags, with the defaults for objects stored before defaulting filled them. */
const flag = (path: string, fallback: boolean) => (o: Row): boolean => {
  const v = field(o, path);
  return typeof v === 'boolean' ? v : fallback;
};

function tokenAudiences(o: Row): string {
  const requests = field(o, 'spec.tokenRequests');
  return Array.isArray(requests) ? records(requests).map((r) => String(r['audience'] ?? '')).join(',') : '<unset>';
}

function modes(o: Row): string {
  const m = field(o, 'spec.volumeLifecycleModes');
  return Array.isArray(m) && m.length > 0 ? m.join(',') : '<none>';
}

export const csiDriverKind: KindModule = {
  api: { group: 'storage.k8s.io', version: 'v1', resource: 'csidrivers', kind: 'CSIDriver', namespaced: false },
  strategy: csiDriverStrategy,
  columns: [
    NAME_COLUMN,
    col('AttachRequired', flag('spec.attachRequired', true), 'boolean'),
    col('PodInfoOnMount', flag('spec.podInfoOnMount', false), 'boolean'),
    col('StorageCapacity', flag('spec.storageCapacity', false), 'boolean'),
    col('TokenRequests', tokenAudiences),
    col('RequiresRepublish', flag('spec.requiresRepublish', false), 'boolean'),
    col('Modes', modes),
    AGE_COLUMN,
  ],
};
