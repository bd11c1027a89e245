import type { KubeObject } from '../../shared/k8s.ts';
import { obj, setDefault, type Obj } from './defaulting.ts';
import type { KindStrategy } from './kindStrategy.ts';
import type { KindModule } from './kindModule.ts';
import { accessModesText, storageClassOf, VOLUME_MODE_COLUMN, volumePhase } from './volumeColumns.ts';
import { AGE_COLUMN, col, field, NAME_COLUMN, quantityText, str } from '../vocabulary/tableCells.ts';

// PersistentVolumes: SetDefaults_PersistentVolume (a hand-made volume is Retained, a Filesystem)
// and the Pending phase a new one starts in (the volume controller moves it on).

export const persistentVolumeStrategy: KindStrategy = {
  defaults(o: KubeObject): void {
    const spec = obj(o as Obj, 'spec');
    // Dynamically provisioned volumes carry their StorageClass's policy; a hand-made one is kept.
    setDefault(spec, 'persistentVolumeReclaimPolicy', 'Retain');
    setDefault(spec, 'volumeMode', 'Filesystem');
  },

  prepareForCreate(o: KubeObject): void {
    o.status = { phase: 'Pending' };
  },
};

export const persistentVolumeKind: KindModule = {
  api: { group: '', version: 'v1', resource: 'persistentvolumes', kind: 'PersistentVolume', namespaced: false, shortNames: ['pv'], status: true },
  strategy: persistentVolumeStrategy,
  zeroStatus: () => ({}),
  columns: [
    NAME_COLUMN,
    col('Capacity', (o) => quantityText(field(o, 'spec.capacity.storage'), '0')),
    col('Access Modes', (o) => accessModesText(field(o, 'spec.accessModes'))),
    col('Reclaim Policy', (o) => str(o, 'spec.persistentVolumeReclaimPolicy')),
    col('Status', volumePhase),
    col('Claim', (o) => (field(o, 'spec.claimRef') ? `${str(o, 'spec.claimRef.namespace')}/${str(o, 'spec.claimRef.name')}` : '')),
    col('StorageClass', storageClassOf, 'string', 0, 'StorageClass of the pv'),
    col('Reason', (o) => str(o, 'status.reason')),
    AGE_COLUMN,
    VOLUME_MODE_COLUMN,
  ],
};
