// What both sides say about a kind the cluster does not serve: the controller's process when a
// kind of its own is missing at start, the session when an informer reports NotServed.

/** How to serve a kind that is missing, said once beside it. */
export const INSTALL_CRD_HINT =
  'install its CustomResourceDefinition before the controller starts: `kubectl apply -f config/crd/bases`, or `include: [../config/crd/bases]` in the scenario (paths are relative to the scenario file)';
