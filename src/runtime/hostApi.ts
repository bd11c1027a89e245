// The runtime's face for the controller host (src/host), the child process that runs a controller:
// the reconcile loop it drives and the ports it plugs the cluster into. The CLI, the debugger and
// the views enter the runtime through index.ts instead.

export { ControllerLoop } from './controllerLoop.ts';
export type { ControllerQueue, InformerEvent, KindInformer, ObjectWriter, QueueCounts } from './ports.ts';
export { ProcessExitError } from './processExitError.ts';
export { truncateText } from './truncate.ts';
