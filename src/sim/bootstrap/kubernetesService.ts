import type { TimerHandle } from '../../shared/clock.ts';
import type { KubeObject } from '../../shared/k8s.ts';
import { jsonEqual } from '../vocabulary/jsonEqual.ts';
import type { SimObjects } from '../simObjects.ts';
import { createIfMissing, getOrUndefined, GVR } from './objectAccess.ts';

// kube-apiserver's bootstrap controller: the `default/kubernetes` Service (ClusterIP 10.96.0.1,
// port 443 named https → the port the server listens on), and its Endpoints and EndpointSlice
// naming the server's own address. In-cluster clients (client-go's InClusterConfig, test suites'
// set-up) look these up. Every EndpointInterval (10 s) the Service is created if it went missing
// and the Endpoints/EndpointSlice are made to match the address again; the Service's ports and
// type are corrected only when the server starts (a restart on another port moves them along).

export const KUBERNETES_SERVICE_IP = '10.96.0.1';
export const ENDPOINT_INTERVAL_MS = 10_000;
const NAME = 'kubernetes';
const NAMESPACE = 'default';
const PORT_NAME = 'https';

export interface ServingAddress {
  ip: string;
  port: number;
}

export function desiredService(address: ServingAddress): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: NAME, namespace: NAMESPACE, labels: { component: 'apiserver', provider: 'kubernetes' } },
    spec: {
      ports: [{ name: PORT_NAME, port: 443, protocol: 'TCP', targetPort: address.port }],
      clusterIP: KUBERNETES_SERVICE_IP,
      clusterIPs: [KUBERNETES_SERVICE_IP],
      ipFamilyPolicy: 'SingleStack',
      sessionAffinity: 'None',
      type: 'ClusterIP',
    },
  };
}

export function desiredEndpoints(address: ServingAddress): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Endpoints',
    // The EndpointSlice below is written by the server itself, not mirrored from these.
    metadata: { name: NAME, namespace: NAMESPACE, labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } },
    subsets: [{ addresses: [{ ip: address.ip }], ports: [{ name: PORT_NAME, port: address.port, protocol: 'TCP' }] }],
  };
}

export function desiredEndpointSlice(address: ServingAddress): KubeObject {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: NAME, namespace: NAMESPACE, labels: { 'kubernetes.io/service-name': NAME } },
    addressType: 'IPv4',
    endpoints: [{ addresses: [address.ip], conditions: { ready: true } }],
    ports: [{ name: PORT_NAME, port: address.port, protocol: 'TCP' }],
  };
}

type Fields = Record<string, unknown>;

export class KubernetesServiceReconciler {
  private readonly cluster: SimObjects;
  private readonly address: ServingAddress;
  private readonly intervalMs: number;
  private timer: TimerHandle | undefined;
  private stopped = false;
  private readonly onError: (err: unknown) => void;

  constructor(cluster: SimObjects, address: ServingAddress, options: { intervalMs?: number; onError?: (err: unknown) => void } = {}) {
    this.cluster = cluster;
    this.address = address;
    this.intervalMs = options.intervalMs ?? ENDPOINT_INTERVAL_MS;
    this.onError = options.onError ?? (() => {});
  }

  /** Reconciles now (correcting the Service's ports), then every interval until stopped. */
  start(): void {
    this.attempt(() => this.reconcile({ correctService: true }));
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
  }

  reconcile(options: { correctService?: boolean } = {}): void {
    this.ensureService(options.correctService ?? false);
    this.ensure(GVR.endpoints, desiredEndpoints(this.address), ['subsets']);
    this.ensure(GVR.endpointslices, desiredEndpointSlice(this.address), ['addressType', 'endpoints', 'ports']);
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = this.cluster.clock.setTimer(this.intervalMs, () => {
      this.attempt(() => this.reconcile());
      this.schedule();
    });
  }

  private attempt(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      // A fault injected into the store (or a namespace being recreated) is retried next interval.
      this.onError(err);
    }
  }

  private ensureService(correct: boolean): void {
    const want = desiredService(this.address);
    const have = getOrUndefined(this.cluster, GVR.services, NAMESPACE, NAME);
    if (!have) return createIfMissing(this.cluster, GVR.services, NAMESPACE, want);
    if (!correct) return;
    const spec = (have as { spec?: Fields }).spec ?? {};
    const wantSpec = want['spec'] as Fields;
    if (jsonEqual(spec['ports'], wantSpec['ports']) && spec['type'] === wantSpec['type']) return;
    const next = structuredClone(have) as KubeObject & { spec: Fields };
    next.spec = { ...spec, ports: wantSpec['ports'], type: wantSpec['type'] };
    this.cluster.update(GVR.services, NAMESPACE, NAME, next);
  }

  /** Creates the object, or puts back the fields and labels it must have. */
  private ensure(gvr: typeof GVR.endpoints, want: KubeObject, fields: string[]): void {
    const have = getOrUndefined(this.cluster, gvr, NAMESPACE, NAME);
    if (!have) return createIfMissing(this.cluster, gvr, NAMESPACE, want);
    const labels = { ...have.metadata.labels, ...want.metadata.labels };
    const same = fields.every((f) => jsonEqual((have as Fields)[f], want[f])) && jsonEqual(labels, have.metadata.labels ?? {});
    if (same) return;
    const next = structuredClone(have) as KubeObject;
    for (const f of fields) next[f] = want[f];
    next.metadata.labels = labels;
    this.cluster.update(gvr, NAMESPACE, NAME, next);
  }
}
