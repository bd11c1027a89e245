import { ControllerSession } from '../runtime/index.ts';
import { startDebugCluster } from './debugClusters.ts';
import { ReconcileRuntime } from './reconcileRuntime.ts';

// The one place the reconcile runtime is wired to the real world: controllers run in their own
// process (the TypeScript host child, or the Go program), on a simulated cluster of the session's
// own or a kubeconfig's. Tests build a ReconcileRuntime with an in-process host instead.

export function productionRuntime(): ReconcileRuntime {
  return new ReconcileRuntime({
    startSession: (options) => new ControllerSession(options),
    startCluster: startDebugCluster,
  });
}
