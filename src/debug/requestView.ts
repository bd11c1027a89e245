import type { ReconcileRecord } from '../runtime/index.ts';

// The reconcile's request as the debugger shows it: the Request scope and `req` in the Debug
// Console are this same object, so `req.key` evaluates to what the scope shows.

export interface RequestView {
  namespace: string;
  name: string;
  key: string;
  kind: string;
  /** Whose reconcile (a Go manager runs several controllers). */
  controller: string;
  reconcileId: string;
  worker: number;
  cacheResourceVersion: string;
}

export function requestView(record: ReconcileRecord): RequestView {
  return {
    namespace: record.request.namespace,
    name: record.request.name,
    key: record.key,
    kind: record.forKind.kind,
    controller: record.controller,
    reconcileId: record.reconcileId,
    worker: record.worker,
    cacheResourceVersion: record.cacheResourceVersion,
  };
}
