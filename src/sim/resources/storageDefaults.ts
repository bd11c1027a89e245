import { setDefault, type Obj } from './defaulting.ts';

// StorageClass defaults (volumes and claims have theirs in src/sim/kinds).

/** storage/v1 SetDefaults_StorageClass: volumes it provisions are deleted with their claim, bound at once. */
export function storageClassDefaults(o: Obj): void {
  setDefault(o, 'reclaimPolicy', 'Delete');
  setDefault(o, 'volumeBindingMode', 'Immediate');
}
