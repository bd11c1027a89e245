// What the Node contenders load from src/, loaded only in their child processes (the benchmark's
// bundle inlines it).

export { loadCluster } from '../../src/kube/index.ts';
export { LineSplitter } from '../../src/kube/lineSplitter.ts';
export { createSharedInformer, dropManagedFields } from '../../src/informer/index.ts';
