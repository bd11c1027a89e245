import type { InProcessCluster } from '../simObjects.ts';
import { startControllerManager, type ControllerManager } from './controllerManager.ts';
import { EventTtl } from './eventTtl.ts';
import { KubernetesServiceReconciler } from './kubernetesService.ts';

// What starts once the sim is served over HTTP(S), when its address and CA are known: the API
// server's `kubernetes` Service reconciler and Event expiry, and the built-in controllers of
// kube-controller-manager.
// (The objects kube-apiserver writes before it serves, RBAC and PriorityClasses, are written when
// the cluster is created: see apiServerBootstrap.ts.)

export interface ControlPlaneOptions {
  /** The port the server listens on (on 127.0.0.1). */
  port: number;
  /** The serving CA ('' for plain HTTP). */
  caPem: string;
  /** Interval of the kubernetes Service reconciler. Default 10 s. */
  endpointIntervalMs?: number;
  /**
   * Run kube-controller-manager's controllers (CA ConfigMap, default ServiceAccount, role
   * aggregation, garbage collection, namespace deletion). Default true; false is envtest's
   * cluster: an API server alone.
   */
  controllerManager?: boolean;
  onError?: (err: unknown) => void;
}

export interface ControlPlane {
  readonly controllerManager: ControllerManager | undefined;
  stop(): void;
}

// A cluster has one control plane: a second server on the same store (another port, another CA)
// serves it as well but leaves the kubernetes Service and the CA ConfigMaps to the first, rather
// than fighting over them.
const running = new WeakMap<InProcessCluster, ControlPlane>();

/** Starts the control plane, or answers undefined when one already runs for this cluster. */
export function startControlPlane(cluster: InProcessCluster, options: ControlPlaneOptions): ControlPlane | undefined {
  if (running.has(cluster)) return undefined;
  const onError = options.onError ?? (() => {});
  const endpoints = new KubernetesServiceReconciler(cluster, { ip: '127.0.0.1', port: options.port }, { onError, ...(options.endpointIntervalMs ? { intervalMs: options.endpointIntervalMs } : {}) });
  endpoints.start();
  const eventTtl = new EventTtl(cluster, { onError });
  eventTtl.start();
  const controllerManager = options.controllerManager === false ? undefined : startControllerManager(cluster, { onError, ...(options.caPem ? { caPem: options.caPem } : {}) });
  // The store does the garbage collector's and namespace controller's part right after a delete.
  cluster.setDeletionControllers(options.controllerManager !== false);
  const plane: ControlPlane = {
    controllerManager,
    stop() {
      endpoints.stop();
      eventTtl.stop();
      controllerManager?.stop();
      if (running.get(cluster) === plane) running.delete(cluster);
    },
  };
  running.set(cluster, plane);
  return plane;
}
