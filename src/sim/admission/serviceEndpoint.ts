import type { KubeObject } from '../../shared/k8s.ts';
import type { SimObjects } from '../simObjects.ts';
import type { ServiceReference } from './webhookConfigurations.ts';

// Where a webhook's `clientConfig.service` is reached. kube-apiserver dials the Service's cluster
// DNS name; the sim has no cluster network, so it takes what the Service routes to as the cluster
// stores it: an ExternalName's host, or the first address of the Service's Endpoints (a webhook
// served on the developer's machine is registered with an Endpoints object naming 127.0.0.1). The
// TLS server name stays `<name>.<namespace>.svc`, as the webhook's certificate names it.

export interface Endpoint {
  host: string;
  port: number;
}

export class ServiceUnreachable extends Error {}

function get(cluster: SimObjects, resource: string, namespace: string, name: string): Readonly<KubeObject> | undefined {
  try {
    return cluster.get({ group: '', version: 'v1', resource }, namespace, name).object;
  } catch {
    return undefined;
  }
}

interface ServicePort { name?: string; port?: number; targetPort?: number | string }
interface EndpointSubset { addresses?: { ip?: string }[]; ports?: { name?: string; port?: number }[] }

export function serviceEndpoint(cluster: SimObjects, ref: ServiceReference): Endpoint {
  const where = `service "${ref.namespace}/${ref.name}"`;
  const service = get(cluster, 'services', ref.namespace, ref.name);
  if (!service) throw new ServiceUnreachable(`${where} not found`);
  const spec = (service as { spec?: { type?: string; externalName?: string; ports?: ServicePort[] } }).spec ?? {};
  if (spec.type === 'ExternalName' && spec.externalName) return { host: spec.externalName, port: ref.port };
  const port = (spec.ports ?? []).find((p) => p.port === ref.port);
  if (!port) throw new ServiceUnreachable(`${where} has no port ${ref.port}`);
  const endpoints = get(cluster, 'endpoints', ref.namespace, ref.name) as { subsets?: EndpointSubset[] } | undefined;
  for (const subset of endpoints?.subsets ?? []) {
    const ip = subset.addresses?.find((a) => a.ip)?.ip;
    const ports = subset.ports ?? [];
    const match = ports.length === 1 ? ports[0] : ports.find((p) => (p.name ?? '') === (port.name ?? ''));
    if (ip && match?.port) return { host: ip, port: match.port };
  }
  throw new ServiceUnreachable(`${where} has no endpoints ready for port ${ref.port}`);
}
