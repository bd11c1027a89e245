import type { KubeObject } from '../../../../src/shared/k8s.ts';
import type { SimCluster } from '../../../../src/sim/simCluster.ts';
import { newCluster, tick } from '../store/helpers.ts';
import type { WorkloadOptions } from '../../../../src/sim/workloads/index.ts';
import type { FakeClock } from '../../../../src/shared/clock.ts';
import { DAEMONSETS, DEPLOYMENTS, JOBS, NODES, PODS, REPLICASETS, STATEFULSETS } from '../../../../src/sim/workloads/workloadCluster.ts';

// A simulated cluster with the workload simulation on a fake clock: time moves only in `run`, so
// every rollout step can be checked in between.

export const GVR = {
  pods: PODS,
  nodes: NODES,
  deployments: DEPLOYMENTS,
  replicasets: REPLICASETS,
  statefulsets: STATEFULSETS,
  daemonsets: DAEMONSETS,
  jobs: JOBS,
};

export interface Lab {
  cluster: SimCluster;
  clock: FakeClock;
  /** Advances the clock by `ms` in 10 ms steps, letting watch deliveries run at each. */
  run(ms: number, each?: () => void): Promise<void>;
  /** Runs until `done` holds (or fails after `limitMs` of simulated time). */
  until(done: () => boolean, limitMs?: number, each?: () => void): Promise<number>;
  items(gvr: (typeof GVR)[keyof typeof GVR], namespace?: string): KubeObject[];
}

export function workloadLab(options: Partial<WorkloadOptions> = {}): Lab {
  const { cluster, clock } = newCluster();
  cluster.enableWorkloads({ podStartDelayMs: 100, jobPodDurationMs: 200, ...options });
  const lab: Lab = {
    cluster,
    clock,
    async run(ms, each) {
      for (let t = 0; t < ms; t += 10) {
        await tick();
        clock.step(10);
        await tick();
        each?.();
      }
    },
    async until(done, limitMs = 60_000, each) {
      for (let t = 0; t <= limitMs; t += 10) {
        if (done()) return t;
        await lab.run(10, each);
      }
      throw new Error(`not done after ${limitMs} ms of simulated time`);
    },
    items: (gvr, namespace = 'default') => cluster.list(gvr, { namespace }).items.map((s) => s.object as KubeObject),
  };
  return lab;
}

export function deployment(name: string, replicas: number, image: string, strategy?: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image }] } },
      ...(strategy ? { strategy } : {}),
    },
  };
}

export function statusOf(o: KubeObject | undefined): Record<string, unknown> {
  return (o?.status ?? {}) as Record<string, unknown>;
}

export function condition(o: KubeObject | undefined, type: string): { status?: string; reason?: string } | undefined {
  return (statusOf(o).conditions as { type: string; status?: string; reason?: string }[] | undefined)?.find((c) => c.type === type);
}
