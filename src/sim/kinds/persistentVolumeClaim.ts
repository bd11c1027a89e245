import type { KubeObject } from '../../shared/k8s.ts';
import { obj, setDefault, type Obj } from './defaulting.ts';
import type { Cause } from '../../shared/apiErrors.ts';
import { forbidden, isRecord, notSupported, required, sameValue } from './fieldErrors.ts';
import type { KindStrategy } from './kindStrategy.ts';
import type { KindModule } from './kindModule.ts';
import { accessModesText, storageClassOf, VOLUME_MODE_COLUMN, volumePhase } from './volumeColumns.ts';
import { AGE_COLUMN, col, field, NAME_COLUMN, quantityText, str, type Obj as Row } from '../vocabulary/tableCells.ts';
import { validateLabelSelector } from './labelSelectorObject.ts';

// PersistentVolumeClaims: SetDefaults_PersistentVolumeClaim (volumeMode Filesystem), access modes
// and a storage request required, and a spec that is immutable once created but for the storage
// request of a bound claim (which may only grow) and a volumeName set once.

const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];

const storageOf = (spec: Record<string, unknown>): unknown => {
  const resources = isRecord(spec.resources) ? spec.resources : {};
  return isRecord(resources.requests) ? resources.requests.storage : undefined;
};

export const persistentVolumeClaimStrategy: KindStrategy = {
  defaults(o: KubeObject): void {
    setDefault(obj(o as Obj, 'spec'), 'volumeMode', 'Filesystem');
  },

  prepareForCreate(o: KubeObject): void {
    // The phase the server fills in; the volume controller moves it on.
    o.status = { phase: 'Pending' };
  },

  validate(o: Readonly<KubeObject>): Cause[] {
    const spec = isRecord(o.spec) ? o.spec : {};
    const causes: Cause[] = [];
    const modes = Array.isArray(spec.accessModes) ? spec.accessModes : [];
    if (modes.length === 0) causes.push(required('spec.accessModes', 'at least 1 access mode is required'));
    causes.push(...validateLabelSelector(spec.selector, 'spec.selector'));
    for (const mode of modes) if (!ACCESS_MODES.includes(String(mode))) causes.push(notSupported('spec.accessModes', mode, ACCESS_MODES));
    if (modes.includes('ReadWriteOncePod') && modes.length > 1) causes.push(forbidden('spec.accessModes', 'may not use ReadWriteOncePod with other access modes'));
    if (storageOf(spec) === undefined) causes.push(required('spec.resources[storage]'));
    const mode = spec.volumeMode;
    if (mode !== undefined && mode !== null && mode !== 'Block' && mode !== 'Filesystem') causes.push(notSupported('spec.volumeMode', mode, ['Block', 'Filesystem']));
    return causes;
  },

  validateUpdate(before: Readonly<KubeObject>, after: Readonly<KubeObject>): Cause[] {
    const was = isRecord(before.spec) ? before.spec : {};
    const now = isRecord(after.spec) ? { ...after.spec } : {};
    if (!was.volumeName) now.volumeName = was.volumeName;
    const bound = isRecord(after.status) && after.status.phase === 'Bound';
    if (bound && isRecord(now.resources) && isRecord(now.resources.requests)) {
      now.resources = { ...now.resources, requests: { ...now.resources.requests, storage: storageOf(was) } };
    }
    return sameValue(was, now) ? [] : [forbidden('spec', 'spec is immutable after creation except resources.requests for bound claims')];
  },
};

/** A claim shows capacity and access modes only once bound, and then the volume's (from its status). */
const bound = (o: Row): boolean => str(o, 'spec.volumeName') !== '';

export const persistentVolumeClaimKind: KindModule = {
  api: { group: '', version: 'v1', resource: 'persistentvolumeclaims', kind: 'PersistentVolumeClaim', shortNames: ['pvc'], status: true },
  strategy: persistentVolumeClaimStrategy,
  zeroStatus: () => ({}),
  columns: [
    NAME_COLUMN,
    col('Status', volumePhase),
    col('Volume', (o) => str(o, 'spec.volumeName')),
    col('Capacity', (o) => (bound(o) ? quantityText(field(o, 'status.capacity.storage'), '0') : '')),
    col('Access Modes', (o) => (bound(o) ? accessModesText(field(o, 'status.accessModes')) : '')),
    col('StorageClass', storageClassOf, 'string', 0, 'StorageClass of the pvc'),
    AGE_COLUMN,
    VOLUME_MODE_COLUMN,
  ],
};
