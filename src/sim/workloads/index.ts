import type { RequestContext } from '../store/types.ts';
import { runController, type ControllerDefinition, type RunningController } from './controllerLoop.ts';
import { cronJobController } from './cronJobController.ts';
import { daemonSetController } from './daemonSetController.ts';
import { deploymentController } from './deploymentController.ts';
import { disruptionController } from './disruptionController.ts';
import { endpointsController } from './endpointsController.ts';
import { endpointSliceController } from './endpointSliceController.ts';
import { endpointSliceMirroringController } from './endpointSliceMirroringController.ts';
import { fakeKubelet } from './fakeKubelet.ts';
import { hpaController } from './hpaController.ts';
import { ensureFakeNodes } from './fakeNodes.ts';
import { jobController } from './jobController.ts';
import { replicaSetController } from './replicaSetController.ts';
import { replicationControllerController } from './replicationControllerController.ts';
import { resourceQuotaController } from './resourceQuotaController.ts';
import { scheduler } from './scheduler.ts';
import { statefulSetController } from './statefulSetController.ts';
import { ttlAfterFinishedController } from './ttlAfterFinishedController.ts';
import { controllerManagerAgent, type WorkloadCluster } from './workloadCluster.ts';
import { workloadOptions, type WorkloadOptions } from './workloadOptions.ts';

// The optional workload simulation: the controller-manager's workload, CronJob, TTL, disruption,
// autoscaler, endpoints and resource quota loops, a scheduler and fake kubelets on fake Nodes, so Deployments roll
// out, Jobs complete and CronJobs start them, budgets guard `kubectl drain`, Services list their
// Pods and `kubectl rollout status` returns. Off unless asked for, so a user's own controllers for
// these kinds are not raced. Each loop is a client of the cluster with its own user agent, visible
// in the Clients view.

export { workloadOptions, type WorkloadOptions } from './workloadOptions.ts';
export { onClock } from './workloadCluster.ts';

export interface RunningWorkloads {
  readonly options: WorkloadOptions;
  /** A loop has a key queued, or one due within `withinMs` (a Pod about to start, a Job about to finish). */
  busy(withinMs: number): boolean;
  stop(): void;
}

function client(userAgent: string): RequestContext {
  return { client: { userAgent, tokenId: '' } };
}

export function startWorkloads(cluster: WorkloadCluster, partial: Partial<WorkloadOptions> = {}, onError: (message: string) => void = () => {}): RunningWorkloads {
  const options = workloadOptions(partial);
  const kubelet = client('kwok/v0.6.1 (linux/amd64) controller-lab fake kubelet');
  ensureFakeNodes(cluster, options.nodes, kubelet);
  const loops: [ControllerDefinition, RequestContext][] = [
    [deploymentController(cluster), client(controllerManagerAgent('deployment-controller'))],
    [replicaSetController(cluster), client(controllerManagerAgent('replicaset-controller'))],
    [replicationControllerController(cluster), client(controllerManagerAgent('replication-controller'))],
    [statefulSetController(cluster), client(controllerManagerAgent('statefulset-controller'))],
    [daemonSetController(cluster), client(controllerManagerAgent('daemon-set-controller'))],
    [jobController(cluster), client(controllerManagerAgent('job-controller'))],
    [cronJobController(cluster), client(controllerManagerAgent('cronjob-controller'))],
    [ttlAfterFinishedController(cluster), client(controllerManagerAgent('ttl-after-finished-controller'))],
    [disruptionController(cluster), client(controllerManagerAgent('disruption-controller'))],
    [hpaController(cluster), client(controllerManagerAgent('horizontal-pod-autoscaler'))],
    [endpointsController(cluster), client(controllerManagerAgent('endpoint-controller'))],
    [endpointSliceController(cluster), client(controllerManagerAgent('endpointslice-controller'))],
    [endpointSliceMirroringController(cluster), client(controllerManagerAgent('endpointslicemirroring-controller'))],
    [resourceQuotaController(cluster), client(controllerManagerAgent('resourcequota-controller'))],
    [scheduler(cluster), client('kube-scheduler/v1.28.4 (linux/amd64) kubernetes/sim/scheduler')],
    [fakeKubelet(cluster, options), kubelet],
  ];
  const running: RunningController[] = loops.map(([definition, ctx]) => runController(cluster, definition, ctx, onError));
  return {
    options,
    busy: (withinMs) => running.some((r) => r.busy(withinMs)),
    stop: () => {
      for (const r of running) r.stop();
    },
  };
}
