import type { KubeObject } from '../../shared/k8s.ts';
import { obj, setDefault, type Obj } from '../resources/defaulting.ts';
import type { KindStrategy } from './kindStrategy.ts';

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
