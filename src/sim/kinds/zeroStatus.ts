// The status a built-in kind has before any controller wrote one. kube-apiserver is written in Go:
// its Status fields are structs, not pointers, so a new Deployment is answered with `status: {}`
// and a new Node with its empty nodeInfo, and the fields without `omitempty` are always there
// (a DaemonSet's counts as 0). Clients that compare what they created with what they read back
// (controller-runtime's unstructured Get) see the difference.

type Json = Record<string, unknown>;

const NODE_INFO_FIELDS = [
  'machineID', 'systemUUID', 'bootID', 'kernelVersion', 'osImage', 'containerRuntimeVersion',
  'kubeletVersion', 'kubeProxyVersion', 'operatingSystem', 'architecture',
];

/** Fields without omitempty, with their Go zero values, by `group/resource`. */
const ZERO: Record<string, () => Json> = {
  '/pods': () => ({}),
  '/services': () => ({ loadBalancer: {} }),
  '/nodes': () => ({ daemonEndpoints: { kubeletEndpoint: { Port: 0 } }, nodeInfo: Object.fromEntries(NODE_INFO_FIELDS.map((f) => [f, ''])) }),
  '/persistentvolumeclaims': () => ({}),
  '/persistentvolumes': () => ({}),
  '/resourcequotas': () => ({}),
  'apps/deployments': () => ({}),
  'apps/replicasets': () => ({ replicas: 0 }),
  'apps/statefulsets': () => ({ replicas: 0, availableReplicas: 0 }),
  'apps/daemonsets': () => ({ currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 }),
  'autoscaling/horizontalpodautoscalers': () => ({ desiredReplicas: 0 }),
  'batch/jobs': () => ({}),
  'batch/cronjobs': () => ({}),
  'networking.k8s.io/ingresses': () => ({ loadBalancer: {} }),
  'policy/poddisruptionbudgets': () => ({ disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 }),
  'certificates.k8s.io/certificatesigningrequests': () => ({}),
};

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Fills what Go would print into `status` (kept as given where set); undefined for kinds without a struct status. */
export function withZeroStatus(info: { group: string; resource: string }, status: unknown): Json | undefined {
  const zero = ZERO[`${info.group}/${info.resource}`];
  if (!zero) return isObject(status) ? status : undefined;
  const out: Json = isObject(status) ? { ...status } : {};
  for (const [k, v] of Object.entries(zero())) {
    if (out[k] === undefined || out[k] === null) out[k] = v;
    else if (isObject(v) && isObject(out[k])) out[k] = { ...v, ...out[k] };
  }
  return out;
}

/** Whether this kind's status is a Go struct the server always prints. */
export function hasZeroStatus(info: { group: string; resource: string }): boolean {
  return Object.hasOwn(ZERO, `${info.group}/${info.resource}`);
}
