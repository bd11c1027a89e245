import type { ControllerTreeNode } from './controllerTreeNodes.ts';
import { CONTROLLER_NODE_KINDS } from './controllerTreeNodes.ts';

// The tree's elements: small records with ids that stay the same while what they name exists, so
// VS Code keeps expansion and selection across refreshes and `reveal` can find them.

export type TreeNode =
  | { kind: 'cluster'; id: string; clusterId: string }
  | { kind: 'informer'; id: string; clusterId: string; informerId: string }
  | { kind: 'namespace'; id: string; clusterId: string; informerId: string; namespace: string }
  | { kind: 'object'; id: string; clusterId: string; informerId: string; namespace: string; key: string }
  | { kind: 'clients'; id: string; clusterId: string }
  | { kind: 'client'; id: string; clusterId: string; clientId: string }
  | { kind: 'clientDetail'; id: string; clusterId: string; clientId: string; label: string; description: string; icon: string }
  | { kind: 'error'; id: string; parentId: string; title: string; message: string }
  | { kind: 'message'; id: string; parentId: string; label: string; icon: string }
  /** "N more…": a long object list is shown a page at a time. */
  | { kind: 'more'; id: string; parentId: string; informerId: string; namespace: string }
  /** Running controllers (src/vscode/controllers): their informers and workqueue. */
  | ControllerTreeNode;

export function isControllerNode(node: TreeNode): node is ControllerTreeNode {
  return (CONTROLLER_NODE_KINDS as readonly string[]).includes(node.kind);
}

export type TreeNodeKind = TreeNode['kind'];

export const nodeIds = {
  cluster: (clusterId: string) => `cluster:${clusterId}`,
  informer: (informerId: string) => `informer:${informerId}`,
  namespace: (informerId: string, namespace: string) => `ns:${informerId}:${namespace}`,
  object: (informerId: string, key: string) => `obj:${informerId}:${key}`,
  clients: (clusterId: string) => `clients:${clusterId}`,
  client: (clusterId: string, clientId: string) => `client:${clusterId}:${clientId}`,
};

/**
 * One instance per id: VS Code matches refresh events to elements by identity, so the node handed
 * to `onDidChangeTreeData` must be the one `getChildren` returned.
 */
export class NodeCache {
  private readonly nodes = new Map<string, TreeNode>();

  get<N extends TreeNode>(node: N): N {
    const existing = this.nodes.get(node.id);
    if (existing && existing.kind === node.kind) return existing as N;
    this.nodes.set(node.id, node);
    return node;
  }

  lookup(id: string): TreeNode | undefined {
    return this.nodes.get(id);
  }

  delete(id: string): void {
    this.nodes.delete(id);
  }

  /** Forgets every node whose id starts with `prefix` (an informer stopped, a cluster went away). */
  deletePrefix(prefix: string): void {
    for (const id of this.nodes.keys()) if (id.startsWith(prefix)) this.nodes.delete(id);
  }

  /** Forgets an informer's row and every namespace and object row under it. */
  forgetInformer(informerId: string): void {
    this.delete(nodeIds.informer(informerId));
    this.deletePrefix(`ns:${informerId}:`);
    this.deletePrefix(`obj:${informerId}:`);
  }

  get size(): number {
    return this.nodes.size;
  }

  values(): IterableIterator<TreeNode> {
    return this.nodes.values();
  }
}
