import type { Cause } from '../../shared/apiErrors.ts';
import { setDefault, type Obj } from './defaulting.ts';
import { validateQualifiedName } from '../vocabulary/metadataValidation.ts';
import { forbidden, immutable, invalid, isRecord, notSupported, required, sameValue } from './fieldErrors.ts';
import type { KindModule } from './kindModule.ts';
import type { KindStrategy } from './kindStrategy.ts';
import { AGE_COLUMN, col, field, NAME_COLUMN, str, type Obj as Row } from '../vocabulary/tableCells.ts';

// StorageClasses (storage.k8s.io/v1): ValidateStorageClass[Update]. A class names its provisioner
// and parameters once: neither, nor the reclaim policy or binding mode, changes afterwards.

const RECLAIM_POLICIES = ['Delete', 'Retain'];
const BINDING_MODES = ['Immediate', 'WaitForFirstConsumer'];
const MAX_PARAMETERS = 512;
const MAX_PARAMETERS_SIZE = 256 * 1024;

function validateParameters(params: unknown): Cause[] {
  if (!isRecord(params)) return [];
  const entries = Object.entries(params);
  if (entries.length > MAX_PARAMETERS) return [{ reason: 'FieldValueTooLong', field: 'parameters', message: `Too long: must have at most ${MAX_PARAMETERS} bytes` }];
  const causes: Cause[] = [];
  let size = 0;
  for (const [k, v] of entries) {
    if (k === '') causes.push(invalid('parameters', k, 'field can not be empty.'));
    size += Buffer.byteLength(k) + Buffer.byteLength(String(v));
  }
  if (size > MAX_PARAMETERS_SIZE) causes.push({ reason: 'FieldValueTooLong', field: 'parameters', message: `Too long: must have at most ${MAX_PARAMETERS_SIZE} bytes` });
  return causes;
}

const DEFAULT_CLASS_ANNOTATIONS = ['storageclass.kubernetes.io/is-default-class', 'storageclass.beta.kubernetes.io/is-default-class'];

/** The class's name, marked ` (default)` when annotated as the cluster's default (IsDefaultAnnotation). */
function storageClassName(o: Row): string {
  const isDefault = DEFAULT_CLASS_ANNOTATIONS.some((a) => o.metadata.annotations?.[a] === 'true');
  return `${o.metadata.name ?? ''}${isDefault ? ' (default)' : ''}`;
}

export const storageClassStrategy: KindStrategy = {
  /** SetDefaults_StorageClass: volumes it provisions are deleted with their claim, bound at once. */
  defaults(o): void {
    setDefault(o as Obj, 'reclaimPolicy', 'Delete');
    setDefault(o as Obj, 'volumeBindingMode', 'Immediate');
  },

  validate(o): Cause[] {
    const provisioner = typeof o.provisioner === 'string' ? o.provisioner : '';
    const causes = provisioner === '' ? [required('provisioner')] : validateQualifiedName(provisioner.toLowerCase(), 'provisioner');
    causes.push(...validateParameters(o.parameters));
    if (o.reclaimPolicy && !RECLAIM_POLICIES.includes(String(o.reclaimPolicy))) causes.push(notSupported('reclaimPolicy', o.reclaimPolicy, RECLAIM_POLICIES));
    if (!BINDING_MODES.includes(String(o.volumeBindingMode))) causes.push(notSupported('volumeBindingMode', o.volumeBindingMode, BINDING_MODES));
    return causes;
  },

  validateUpdate(before, after): Cause[] {
    const causes: Cause[] = [];
    if (!sameValue(before.parameters, after.parameters)) causes.push(forbidden('parameters', 'updates to parameters are forbidden.'));
    if ((before.provisioner ?? '') !== (after.provisioner ?? '')) causes.push(forbidden('provisioner', 'updates to provisioner are forbidden.'));
    if (before.reclaimPolicy !== after.reclaimPolicy) causes.push(forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
    causes.push(...immutable('volumeBindingMode', before.volumeBindingMode, after.volumeBindingMode));
    return causes;
  },
};

export const storageClassKind: KindModule = {
  api: { group: 'storage.k8s.io', version: 'v1', resource: 'storageclasses', kind: 'StorageClass', namespaced: false, shortNames: ['sc'] },
  strategy: storageClassStrategy,
  // The fallbacks are the server's defaults, for objects stored before defaulting filled them.
  columns: [
    { ...NAME_COLUMN, cell: storageClassName },
    col('Provisioner', (o) => str(o, 'provisioner'), 'string', 0, 'provisioner indicates the type of the provisioner.'),
    col('ReclaimPolicy', (o) => str(o, 'reclaimPolicy', 'Delete'), 'string', 0, 'reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class. Defaults to Delete.'),
    col('VolumeBindingMode', (o) => str(o, 'volumeBindingMode', 'Immediate'), 'string', 0, 'volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.  When unset, VolumeBindingImmediate is used. This field is only honored by servers that enable the VolumeScheduling feature.'),
    col('AllowVolumeExpansion', (o) => field(o, 'allowVolumeExpansion') === true, 'string', 0, 'allowVolumeExpansion shows whether the storage class allow volume expand.'),
    AGE_COLUMN,
  ],
};
