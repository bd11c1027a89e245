// The informer's public API. Everything else in this folder is an implementation detail.

export type { ListerWatcher, ListOptions, WatchOptions, WatchSink, WatchHandle } from './listerWatcher.ts';
export { ITEMS_PREPARED } from './listerWatcher.ts';
export type { Probe, ProbeKind, ProbeListener, DeltaType } from './probes.ts';
export type { DeepReadonly } from './readonly.ts';
export { createIndexer, NAMESPACE_INDEX, namespaceIndexFunc } from './store.ts';
export type { Indexer, IndexerOptions, Indexers, IndexFunc, ReadonlyIndexer } from './store.ts';
export { SHARED_VALUE_MIN_LENGTH } from './sharedValues.ts';
export type { SharedValuesStats } from './sharedValues.ts';
export { createDeltaFifo, DeletedFinalStateUnknown } from './deltaFifo.ts';
export type { Delta, DeltaFifo, DeltaFifoOptions, ReflectorStore, PopProcessor } from './deltaFifo.ts';
export { Reflector } from './reflector.ts';
export type { ReflectorOptions, ReflectorStats } from './reflector.ts';
export { Backoff } from './backoff.ts';
export type { BackoffOptions } from './backoff.ts';
export type { ResourceEventHandler, HandlerResult } from './handlerBuffer.ts';
export { createSharedInformer, SharedInformer } from './sharedInformer.ts';
export type {
  SharedIndexInformer,
  SharedInformerOptions,
  HandlerOptions,
  HandlerRegistration,
  HandlerStats,
  InformerStats,
  InformerErrorListener,
} from './sharedInformer.ts';
export { Informer, createInformer } from './informer.ts';
export { declareMemberCut, dropManagedFields, memberCutOf, textFormOf } from './transforms.ts';
export type { MemberCut, TextTransform } from './transforms.ts';
export type { InformerEvent, ObjectCallback, ErrorCallback, ConnectCallback } from './informer.ts';
