// What an object command (Open Object, Describe, Why (Not)?… from the palette) says when there is
// no object to offer, and the buttons that get one: with no cluster connected (after Disconnect,
// or a connection that failed), "Watch Resource…" cannot help — starting or connecting one does.

export interface NoObjectsMessage {
  text: string;
  actions: { title: string; command: string }[];
}

export function noObjectsMessage(connectedClusters: number): NoObjectsMessage {
  if (connectedClusters === 0) {
    return {
      text: 'Controller Lab: no cluster is connected, so there are no objects to choose from. Start the simulated cluster or connect to one.',
      actions: [
        { title: 'Start Simulated Cluster', command: 'controllerLab.startSimulatedCluster' },
        { title: 'Connect to Cluster…', command: 'controllerLab.connect' },
      ],
    };
  }
  return {
    text: 'Controller Lab: no cached objects yet. Run “Watch Resource…” first.',
    actions: [{ title: 'Watch Resource…', command: 'controllerLab.watchResource' }],
  };
}
