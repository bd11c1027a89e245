import type { GroupVersionResource, KubeObject } from '../../shared/k8s.ts';
import { labelSelectorText, toLabelSelector, type LabelSelector } from '../../shared/labelSelector.ts';
import type { RequestContext } from '../store/types.ts';
import { isReady, phaseOf } from './pods.ts';
import { listObjects, PODS, type WorkloadCluster } from './workloadCluster.ts';

// What the endpoints and EndpointSlice controllers both read off a Service and its Pods, with
// pkg/controller/util/endpoint's rules: a Pod backs a Service when the Service's selector matches
// it, it has an IP and it is not finished; each Service port resolves to a port of the Pod (a named
// targetPort by the container port of that name; a Pod without it does not back that port).

export const SERVICES: GroupVersionResource = { group: '', version: 'v1', resource: 'services' };

export interface ServicePort {
  name?: string;
  port: number;
  targetPort?: number | string;
  protocol?: string;
  appProtocol?: string;
}

/** One port of a backend as the endpoint objects list it. */
export interface BackendPort {
  name: string;
  port: number;
  protocol: string;
  appProtocol?: string;
}

export interface Backend {
  pod: Readonly<KubeObject>;
  ip: string;
  nodeName?: string;
  /** Set when the Pod names itself in the Service's subdomain (a StatefulSet behind a headless Service). */
  hostname?: string;
  ready: boolean;
  terminating: boolean;
  ports: BackendPort[];
}

interface ServiceSpec {
  selector?: Record<string, string>;
  ports?: ServicePort[];
  clusterIP?: string;
  type?: string;
  publishNotReadyAddresses?: boolean;
}

export function serviceSpec(service: Readonly<KubeObject>): ServiceSpec {
  return (service.spec ?? {}) as ServiceSpec;
}

/** A Service the controllers manage endpoints for: one with a selector (without one, its endpoints are the user's). */
export function selectsPods(service: Readonly<KubeObject>): boolean {
  const spec = serviceSpec(service);
  return spec.type !== 'ExternalName' && spec.selector !== undefined && Object.keys(spec.selector).length > 0;
}

export function isHeadless(service: Readonly<KubeObject>): boolean {
  return serviceSpec(service).clusterIP === 'None';
}

interface ContainerPort {
  name?: string;
  containerPort?: number;
  protocol?: string;
}

/** podutil.FindPort: a number is itself; a name is the container port of that name and protocol. */
function findPort(pod: Readonly<KubeObject>, port: ServicePort): number | undefined {
  const target = port.targetPort ?? port.port;
  if (typeof target === 'number') return target;
  const asNumber = Number(target);
  if (/^\d+$/.test(target) && asNumber > 0) return asNumber;
  const containers = ((pod.spec ?? {}) as { containers?: { ports?: ContainerPort[] }[] }).containers ?? [];
  for (const c of containers) {
    for (const p of c.ports ?? []) if (p.name === target && (p.protocol ?? 'TCP') === (port.protocol ?? 'TCP')) return p.containerPort;
  }
  return undefined;
}

/** Terminal Pods and Pods without an IP never back a Service; terminating ones only when asked for. */
function eligible(pod: Readonly<KubeObject>, includeTerminating: boolean): boolean {
  const phase = phaseOf(pod);
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  if (!(pod.status as { podIP?: string } | undefined)?.podIP) return false;
  return includeTerminating || !pod.metadata.deletionTimestamp;
}

/** The Pods behind a Service, each with the ports it serves, in IP order. */
export function backendsOf(cluster: WorkloadCluster, service: Readonly<KubeObject>, ctx: RequestContext, includeTerminating: boolean): Backend[] {
  const spec = serviceSpec(service);
  const namespace = service.metadata.namespace ?? 'default';
  const pods = listObjects(cluster, PODS, namespace, ctx, labelSelectorText({ matchLabels: spec.selector })).filter((p) => eligible(p, includeTerminating));
  const backends = pods.map((pod): Backend => {
    const podSpec = (pod.spec ?? {}) as { nodeName?: string; hostname?: string; subdomain?: string };
    const ports: BackendPort[] = [];
    for (const port of spec.ports ?? []) {
      const number = findPort(pod, port);
      if (number === undefined) continue;
      const entry: BackendPort = { name: port.name ?? '', port: number, protocol: port.protocol ?? 'TCP' };
      if (port.appProtocol) entry.appProtocol = port.appProtocol;
      ports.push(entry);
    }
    const backend: Backend = {
      pod,
      ip: (pod.status as { podIP: string }).podIP,
      ready: spec.publishNotReadyAddresses === true || isReady(pod),
      terminating: pod.metadata.deletionTimestamp !== undefined,
      ports,
    };
    if (podSpec.nodeName) backend.nodeName = podSpec.nodeName;
    if (podSpec.hostname && podSpec.subdomain === service.metadata.name) backend.hostname = podSpec.hostname;
    return backend;
  });
  return backends.sort((a, b) => compareIp(a.ip, b.ip) || (a.pod.metadata.uid ?? '').localeCompare(b.pod.metadata.uid ?? ''));
}

function compareIp(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) if (pa[i] !== pb[i]) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

export function podReference(pod: Readonly<KubeObject>): { kind: 'Pod'; namespace: string; name: string; uid: string } {
  return { kind: 'Pod', namespace: pod.metadata.namespace ?? '', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '' };
}

/** The Service's labels as its endpoint objects carry them, with the headless marker. */
export function endpointLabels(service: Readonly<KubeObject>, extra: Record<string, string> = {}): Record<string, string> {
  const labels: Record<string, string> = { ...(service.metadata.labels ?? {}), ...extra };
  if (isHeadless(service)) labels['service.kubernetes.io/headless'] = '';
  return labels;
}

/** The selector of a Service whose endpoints the controllers manage, parsed; undefined for others. */
export function podSelectorOf(service: Readonly<KubeObject>): LabelSelector | undefined {
  return selectsPods(service) ? toLabelSelector(serviceSpec(service).selector) : undefined;
}
