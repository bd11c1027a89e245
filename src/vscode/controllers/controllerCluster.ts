// Which cluster a running controller talks to, as its tree row says it. A debug session with
// `"cluster": "sim"` (what Debug Controller and `controller-lab init go`'s configurations use) gets
// a simulated cluster of its own: what its reconciles create is not in the Clusters rows above it,
// which show the view's cluster. The row says so, and how to run it on the view's cluster instead.

export interface ControllerClusterNote {
  /** Added to the row's description: `own cluster 127.0.0.1:41779`; none on the view's cluster. */
  description?: string;
  /** A paragraph of the row's tooltip (Markdown). */
  tooltip: string;
}

/** `server`: the controller's API server URL; `viewServers`: those of the clusters the view shows. */
export function controllerClusterNote(server: string | undefined, viewServers: readonly string[]): ControllerClusterNote | undefined {
  if (!server) return undefined;
  const same = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
  if (viewServers.some((v) => same(v, server))) return { tooltip: `cluster: ${server} — the view's, so its objects are in the Clusters rows` };
  const host = server.replace(/^https?:\/\//, '').replace(/\/+$/, '');
  return {
    description: `own cluster ${host}`,
    tooltip:
      `cluster: ${server} — not one the view shows: what it creates is not in the Clusters rows. ` +
      'To see its objects in the tree, debug it with `"cluster": "view"` in its launch configuration (the view\'s simulated cluster), ' +
      'or point `kubectl` at the kubeconfig its Debug Console names.',
  };
}
