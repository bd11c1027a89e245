// The runtime's face for the controller host (src/host), the child process that runs a controller:
// the reconcile loop it drives, the ports it plugs the cluster into, and the host protocol, the one
// seam between the host and its parent (a Go controller's host speaks it too). The CLI, the
// debugger and the views enter the runtime through index.ts instead.

export { isControllerDefinition, userApi, USER_API_GLOBAL } from './api.ts';
export type { ControllerDefinition, KindRef } from './api.ts';
export { API_MODULE_URL } from './apiModule.ts';
export { ControllerLoadError } from './controllerLoadError.ts';
export { ControllerLoop } from './controllerLoop.ts';
export type { ControllerQueue, InformerEvent, KindInformer, ObjectWriter, QueueCounts } from './ports.ts';
export { ProcessExitError } from './processExitError.ts';
export { INSTALL_CRD_HINT } from './informerErrors.ts';
export { isParentMessage } from './protocol.ts';
export type { HostInit, HostMessage } from './protocol.ts';
export { QUEUE_SNAPSHOT_KEYS } from './records.ts';
export type { QueueKeySnapshot, QueueSnapshot } from './records.ts';
export { truncateText } from './truncate.ts';
