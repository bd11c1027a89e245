// `kubectl get` columns PersistentVolumeClaims and PersistentVolumes share (printPersistentVolume[Claim])
// as of v1.28, before VolumeAttributesClass (v1.29) joined them.
import { col, str, type Obj, type TableColumn } from '../vocabulary/tableCells.ts';

const BETA_STORAGE_CLASS = 'volume.beta.kubernetes.io/storage-class';

/** helper.GetAccessModesAsString: RWO, ROX, RWX, RWOP in that order, each once. */
export function accessModesText(modes: unknown): string {
  const given = new Set(Array.isArray(modes) ? modes : []);
  const short: [string, string][] = [['ReadWriteOnce', 'RWO'], ['ReadOnlyMany', 'ROX'], ['ReadWriteMany', 'RWX'], ['ReadWriteOncePod', 'RWOP']];
  return short.filter(([mode]) => given.has(mode)).map(([, s]) => s).join(',');
}

/** The storage class, the beta annotation winning over the field (helper.GetPersistentVolume[Claim]Class). */
export function storageClassOf(o: Obj): string {
  return o.metadata.annotations?.[BETA_STORAGE_CLASS] ?? str(o, 'spec.storageClassName');
}

export const volumePhase = (o: Obj): string => (o.metadata.deletionTimestamp ? 'Terminating' : str(o, 'status.phase'));

export const VOLUME_MODE_COLUMN: TableColumn = col('VolumeMode', (o) => str(o, 'spec.volumeMode', '<unset>'), 'string', 1);
