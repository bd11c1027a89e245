// `kubectl get` columns for PersistentVolumeClaim and PersistentVolume (printPersistentVolumeClaim,
// printPersistentVolume) as of v1.28, before VolumeAttributesClass (v1.29) joined them.
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
};
