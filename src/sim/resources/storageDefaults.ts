import { obj, setDefault, type Obj } from './defaulting.ts';

// Volume defaults (core/v1 SetDefaults_PersistentVolume; a claim's are in kinds/persistentVolumeClaim.ts). Their status phase, Pending, is
// set by the store on create, as a Pod's is: the volume controller moves it on in a real cluster.

export function persistentVolumeDefaults(o: Obj): void {
  const spec = obj(o, 'spec');
  // Dynamically provisioned volumes carry their StorageClass's policy; a hand-made one is kept.
  setDefault(spec, 'persistentVolumeReclaimPolicy', 'Retain');
  setDefault(spec, 'volumeMode', 'Filesystem');
}

/** storage/v1 SetDefaults_StorageClass: volumes it provisions are deleted with their claim, bound at once. */
export function storageClassDefaults(o: Obj): void {
  setDefault(o, 'reclaimPolicy', 'Delete');
  setDefault(o, 'volumeBindingMode', 'Immediate');
}
