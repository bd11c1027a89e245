import type { KubeObject } from '../../shared/k8s.ts';
import type { RequestContext } from '../store/types.ts';
import { timeString } from './pods.ts';
import { getObject, NODES, type WorkloadCluster } from './workloadCluster.ts';

// Fake Nodes, as kwok makes them: Node objects that report Ready with room for 110 Pods, backed by
// no machine. The kubelet simulation (fakeKubelet.ts) plays the part of their kubelets.

export const FAKE_NODE_ANNOTATION = 'kwok.x-k8s.io/node';
export const PODS_PER_NODE = 110;

export function fakeNodeName(index: number): string {
  return `sim-worker-${index + 1}`;
}

/** 10.0.0.N: the Node's InternalIP (an address nothing listens on). */
export function nodeAddress(index: number): string {
  return `10.0.${Math.floor((index + 1) / 250)}.${((index + 1) % 250) + 1}`;
}

function nodeObject(index: number): KubeObject {
  const name = fakeNodeName(index);
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'beta.kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'node.kubernetes.io/instance-type': 'controller-lab-fake',
        type: 'kwok',
      },
      annotations: { [FAKE_NODE_ANNOTATION]: 'fake', 'node.alpha.kubernetes.io/ttl': '0' },
    },
    spec: { podCIDR: `10.244.${index}.0/24`, podCIDRs: [`10.244.${index}.0/24`] },
  };
}

function nodeStatus(index: number, now: string): Record<string, unknown> {
  const resources = { cpu: '32', memory: '256Gi', pods: String(PODS_PER_NODE), 'ephemeral-storage': '1Ti' };
  const condition = (type: string, status: string, reason: string, message: string) => ({ type, status, reason, message, lastHeartbeatTime: now, lastTransitionTime: now });
  return {
    capacity: resources,
    allocatable: resources,
    conditions: [
      condition('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
      condition('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
      condition('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
      condition('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
    ],
    addresses: [{ type: 'InternalIP', address: nodeAddress(index) }, { type: 'Hostname', address: fakeNodeName(index) }],
    daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
    nodeInfo: {
      architecture: 'amd64',
      bootID: '',
      containerRuntimeVersion: 'kwok',
      kernelVersion: '',
      kubeProxyVersion: 'v1.28.4',
      kubeletVersion: 'v1.28.4',
      machineID: '',
      operatingSystem: 'linux',
      osImage: 'Controller Lab fake node',
      systemUUID: '',
    },
    phase: 'Running',
  };
}

/** Creates the fake Nodes that do not exist yet (a restarted cluster keeps its Nodes). */
export function ensureFakeNodes(cluster: WorkloadCluster, count: number, ctx: RequestContext): void {
  const now = timeString(cluster.clock.now());
  for (let i = 0; i < count; i++) {
    if (getObject(cluster, NODES, '', fakeNodeName(i), ctx)) continue;
    const created = structuredClone(cluster.create(NODES, '', nodeObject(i), ctx).object) as KubeObject;
    created.status = nodeStatus(i, now);
    cluster.update(NODES, '', fakeNodeName(i), created, 'status', ctx);
  }
}

/** Nodes that take Pods: Ready and not cordoned. */
export function schedulable(node: Readonly<KubeObject>): boolean {
  const spec = (node.spec ?? {}) as { unschedulable?: boolean };
  const conditions = ((node.status ?? {}) as { conditions?: { type: string; status: string }[] }).conditions ?? [];
  return !spec.unschedulable && conditions.some((c) => c.type === 'Ready' && c.status === 'True');
}
