import { AGE_COLUMN, col, list, NAME_COLUMN, str, type Obj, type TableColumn } from '../vocabulary/tableCells.ts';

// `kubectl get nodes` as v1.28's printNode prints a Node: Ready / NotReady from its Ready
// condition (Unknown without one, SchedulingDisabled when cordoned), roles from the
// node-role.kubernetes.io/<role> labels, the kubelet's version, and with -o wide its addresses and
// what its kubelet reports of the machine.

function status(o: Obj): string {
  const ready = list(o, 'status.conditions').find((c) => c['type'] === 'Ready');
  const parts = [ready ? (ready['status'] === 'True' ? 'Ready' : 'NotReady') : 'Unknown'];
  if ((o as { spec?: { unschedulable?: unknown } }).spec?.unschedulable === true) parts.push('SchedulingDisabled');
  return parts.join(',');
}

function roles(o: Obj): string {
  const found = new Set<string>();
  for (const [key, value] of Object.entries(o.metadata.labels ?? {})) {
    if (key.startsWith('node-role.kubernetes.io/')) {
      const role = key.slice('node-role.kubernetes.io/'.length);
      if (role) found.add(role);
    } else if (key === 'kubernetes.io/role' && value) {
      found.add(value);
    }
  }
  return found.size ? [...found].sort().join(',') : '<none>';
}

function address(o: Obj, type: string): string {
  const found = list(o, 'status.addresses').find((a) => a['type'] === type);
  return typeof found?.['address'] === 'string' ? found['address'] : '<none>';
}

const ADDRESSES = "List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/concepts/nodes/node/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example. Consumers should assume that addresses can change during the lifetime of a Node. However, there are some exceptions where this may not be possible, such as Pods that inherit a Node's address in its own status or consumers of the downward API (status.hostIP).";

export const NODE_COLUMNS: TableColumn[] = [
  NAME_COLUMN,
  col('Status', status, 'string', 0, 'The status of the node'),
  col('Roles', roles, 'string', 0, 'The roles of the node'),
  AGE_COLUMN,
  col('Version', (o) => str(o, 'status.nodeInfo.kubeletVersion'), 'string', 0, 'Kubelet Version reported by the node.'),
  col('Internal-IP', (o) => address(o, 'InternalIP'), 'string', 1, ADDRESSES),
  col('External-IP', (o) => address(o, 'ExternalIP'), 'string', 1, ADDRESSES),
  col('OS-Image', (o) => str(o, 'status.nodeInfo.osImage') || '<unknown>', 'string', 1, 'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).'),
  col('Kernel-Version', (o) => str(o, 'status.nodeInfo.kernelVersion') || '<unknown>', 'string', 1, "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64)."),
  col('Container-Runtime', (o) => str(o, 'status.nodeInfo.containerRuntimeVersion') || '<unknown>', 'string', 1, 'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).'),
];
