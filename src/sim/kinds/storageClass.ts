import { setDefault, type Obj } from '../resources/defaulting.ts';
import type { KindModule } from './kindModule.ts';
import type { KindStrategy } from './kindStrategy.ts';
import { AGE_COLUMN, col, field, NAME_COLUMN, str, type Obj as Row } from '../server/tableCells.ts';

// StorageClasses (storage.k8s.io/v1).

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
