// `kubectl get` columns for PersistentVolumeClaim, PersistentVolume and StorageClass
// (printPersistentVolumeClaim, printPersistentVolume, printStorageClass) as of v1.28, before
// VolumeAttributesClass (v1.29) joined them.
import { AGE_COLUMN, col, field, NAME_COLUMN, quantityText, str, type Obj, type TableColumn } from './tableCells.ts';

const BETA_STORAGE_CLASS = 'volume.beta.kubernetes.io/storage-class';

/** helper.GetAccessModesAsString: RWO, ROX, RWX, RWOP in that order, each once. */
export function accessModesText(modes: unknown): string {
  const given = new Set(Array.isArray(modes) ? modes : []);
  const short: [string, string][] = [['ReadWriteOnce', 'RWO'], ['ReadOnlyMany', 'ROX'], ['ReadWriteMany', 'RWX'], ['ReadWriteOncePod', 'RWOP']];
  return short.filter(([mode]) => given.has(mode)).map(([, s]) => s).join(',');
}

/** The storage class, the beta annotation winning over the field (helper.GetPersistentVolume[Claim]Class). */
function storageClass(o: Obj): string {
  return o.metadata.annotations?.[BETA_STORAGE_CLASS] ?? str(o, 'spec.storageClassName');
}

const phase = (o: Obj): string => (o.metadata.deletionTimestamp ? 'Terminating' : str(o, 'status.phase'));

const VOLUME_MODE = col('VolumeMode', (o) => str(o, 'spec.volumeMode', '<unset>'), 'string', 1);

const DEFAULT_CLASS_ANNOTATIONS = ['storageclass.kubernetes.io/is-default-class', 'storageclass.beta.kubernetes.io/is-default-class'];

/** The class's name, marked ` (default)` when annotated as the cluster's default (IsDefaultAnnotation). */
function storageClassName(o: Obj): string {
  const isDefault = DEFAULT_CLASS_ANNOTATIONS.some((a) => o.metadata.annotations?.[a] === 'true');
  return `${o.metadata.name ?? ''}${isDefault ? ' (default)' : ''}`;
}

/** A claim shows capacity and access modes only once bound, and then the volume's (from its status). */
const bound = (o: Obj): boolean => str(o, 'spec.volumeName') !== '';

export const STORAGE_COLUMNS: Record<string, TableColumn[]> = {
  persistentvolumeclaims: [
    NAME_COLUMN,
    col('Status', phase),
    col('Volume', (o) => str(o, 'spec.volumeName')),
    col('Capacity', (o) => (bound(o) ? quantityText(field(o, 'status.capacity.storage'), '0') : '')),
    col('Access Modes', (o) => (bound(o) ? accessModesText(field(o, 'status.accessModes')) : '')),
    col('StorageClass', storageClass, 'string', 0, 'StorageClass of the pvc'),
    AGE_COLUMN,
    VOLUME_MODE,
  ],
  persistentvolumes: [
    NAME_COLUMN,
    col('Capacity', (o) => quantityText(field(o, 'spec.capacity.storage'), '0')),
    col('Access Modes', (o) => accessModesText(field(o, 'spec.accessModes'))),
    col('Reclaim Policy', (o) => str(o, 'spec.persistentVolumeReclaimPolicy')),
    col('Status', phase),
    col('Claim', (o) => (field(o, 'spec.claimRef') ? `${str(o, 'spec.claimRef.namespace')}/${str(o, 'spec.claimRef.name')}` : '')),
    col('StorageClass', storageClass, 'string', 0, 'StorageClass of the pv'),
    col('Reason', (o) => str(o, 'status.reason')),
    AGE_COLUMN,
    VOLUME_MODE,
  ],
  // The fallbacks are the server's defaults, for objects stored before defaulting filled them.
  storageclasses: [
    { ...NAME_COLUMN, cell: storageClassName },
    col('Provisioner', (o) => str(o, 'provisioner'), 'string', 0, 'provisioner indicates the type of the provisioner.'),
    col('ReclaimPolicy', (o) => str(o, 'reclaimPolicy', 'Delete'), 'string', 0, 'reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class. Defaults to Delete.'),
    col('VolumeBindingMode', (o) => str(o, 'volumeBindingMode', 'Immediate'), 'string', 0, 'volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.  When unset, VolumeBindingImmediate is used. This field is only honored by servers that enable the VolumeScheduling feature.'),
    col('AllowVolumeExpansion', (o) => field(o, 'allowVolumeExpansion') === true, 'string', 0, 'allowVolumeExpansion shows whether the storage class allow volume expand.'),
    AGE_COLUMN,
  ],
};
