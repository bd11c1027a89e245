// The contract between a controller's process and the session that runs it: the messages each side
// sends (protocol.ts), the records a reconcile leaves behind (records.ts, reconcileOutcome.ts), and
// the API user controllers are written against (api.ts), which both sides speak of. The controller
// host (src/host) and the session side (src/runtime) import it; it imports neither. A Go
// controller's process speaks the same protocol (go/controllerlab/protocol.go).

export { defineController, TerminalError, predicate, GenerationChangedPredicate, ResourceVersionChangedPredicate, LabelChangedPredicate, AnnotationChangedPredicate, isControllerDefinition, isTerminalError, userApi, USER_API_GLOBAL } from './api.ts';
export type {
  CacheListOptions,
  CacheReader,
  ControllerClient,
  ControllerDefinition,
  ControllerLogger,
  ControllerSpec,
  DeleteOptions,
  DeletePreconditions,
  EventRecorder,
  EventType,
  KindRef,
  KindSelector,
  ObjectRef,
  PatchType,
  Predicate,
  PredicateLike,
  ReconcileContext,
  ReconcileRequest,
  ReconcileResult,
  SourceSpec,
  WatchEvent,
  WatchSpec,
} from './api.ts';
export { API_MODULE_SOURCE, API_MODULE_URL } from './apiModule.ts';
export { ControllerLoadError } from './controllerLoadError.ts';
export { isHostMessage, isParentMessage } from './protocol.ts';
export type { CacheDelta, CacheDeltaType, ControllerLoader, ControllerShape, HeldKey, HostInit, HostMessage, ParentMessage, ReconcileEnd } from './protocol.ts';
export { HandlerView, sameView } from './handledViews.ts';
export type { HandledResource, HandledView } from './handledViews.ts';
export { QUEUE_SNAPSHOT_KEYS } from './records.ts';
export { FateBatchWriter, decodeFateBatch } from './fateBatch.ts';
export type { CallSite, EventFate, EventFateKind, LogLine, QueueKeySnapshot, QueueKeyState, QueueSnapshot, ReconcileRecord, StaleRead, TriggerDelta, TriggerEventType, WriteRecord, WriteVerb } from './records.ts';
export type { ReconcileErrorInfo, ReconcileOutcome, RequeueDecision } from './reconcileOutcome.ts';
export { INSTALL_CRD_HINT } from './unservedKind.ts';
