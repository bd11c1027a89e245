import type { KindModule } from './kindModule.ts';
import { validateNode, validateNodeUpdate } from './nodeValidation.ts';
import { NODE_COLUMNS } from './nodeColumns.ts';

// Nodes (core v1). A kubelet registers its Node with a status, so a create keeps the one it
// sends; the empty nodeInfo and daemon endpoints are Go structs the server always prints.

const NODE_INFO_FIELDS = [
  'machineID', 'systemUUID', 'bootID', 'kernelVersion', 'osImage', 'containerRuntimeVersion',
  'kubeletVersion', 'kubeProxyVersion', 'operatingSystem', 'architecture',
];

export const nodeKind: KindModule = {
  api: { group: '', version: 'v1', resource: 'nodes', kind: 'Node', namespaced: false, shortNames: ['no'], status: true },
  zeroStatus: () => ({ daemonEndpoints: { kubeletEndpoint: { Port: 0 } }, nodeInfo: Object.fromEntries(NODE_INFO_FIELDS.map((f) => [f, ''])) }),
  statusOnCreate: 'kept',
  strategy: { validate: validateNode, validateUpdate: validateNodeUpdate },
  columns: NODE_COLUMNS,
};
