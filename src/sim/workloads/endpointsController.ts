import { isNotFound } from '../../shared/apiError.ts';
import { splitKey } from '../../shared/keys.ts';
import type { GroupVersionResource, KubeObject } from '../../shared/k8s.ts';
import { jsonEqual } from '../vocabulary/jsonEqual.ts';
import type { RequestContext } from '../store/types.ts';
import type { ControllerDefinition } from './controllerLoop.ts';
import { PodSelectors } from './podSelectors.ts';
import { timeString } from './pods.ts';
import { backendsOf, endpointLabels, isHeadless, podReference, selectsPods, serviceSpec, podSelectorOf, SERVICES, type Backend, type BackendPort } from './serviceBackends.ts';
import { getObject, PODS, type WorkloadCluster } from './workloadCluster.ts';

// The endpoints controller (pkg/controller/endpoint): an Endpoints object named after each Service
// with a selector, listing its Pods' addresses (ready ones in `addresses`, the rest in
// `notReadyAddresses`) grouped by the ports they serve; deleted with the Service.

export const ENDPOINTS: GroupVersionResource = { group: '', version: 'v1', resource: 'endpoints' };
const TRIGGER_TIME = 'endpoints.kubernetes.io/last-change-trigger-time';

/** An Endpoints port: as a backend's, the name left out when empty. */
type EndpointPort = Omit<BackendPort, 'name'> & { name?: string };

interface Subset {
  addresses?: unknown[];
  notReadyAddresses?: unknown[];
  ports?: EndpointPort[];
}

function address(b: Backend): Record<string, unknown> {
  const a: Record<string, unknown> = { ip: b.ip };
  if (b.hostname) a.hostname = b.hostname;
  if (b.nodeName) a.nodeName = b.nodeName;
  a.targetRef = podReference(b.pod);
  return a;
}

/** One subset per distinct set of ports (RepackSubsets), addresses in IP order. */
function subsetsOf(service: Readonly<KubeObject>, backends: Backend[]): Subset[] {
  const bySignature = new Map<string, Subset>();
  const servesNoPorts = (serviceSpec(service).ports ?? []).length === 0;
  for (const b of backends) {
    // A Pod serving none of the Service's ports is left out, unless a headless Service has no ports at all.
    if (b.ports.length === 0 && !(servesNoPorts && isHeadless(service))) continue;
    const signature = JSON.stringify(b.ports);
    let subset = bySignature.get(signature);
    if (!subset) {
      subset = {};
      bySignature.set(signature, subset);
    }
    const list = b.ready ? (subset.addresses ??= []) : (subset.notReadyAddresses ??= []);
    list.push(address(b));
  }
  return [...bySignature.entries()].map(([signature, s]) => {
    const ports = JSON.parse(signature) as BackendPort[];
    const out: Subset = {};
    if (s.addresses) out.addresses = s.addresses;
    if (s.notReadyAddresses) out.notReadyAddresses = s.notReadyAddresses;
    if (ports.length > 0) out.ports = ports.map(({ name, ...rest }) => (name ? { name, ...rest } : rest));
    return out;
  });
}

export function endpointsController(cluster: WorkloadCluster): ControllerDefinition {
  const index = new PodSelectors(podSelectorOf);
  return {
    name: 'endpoint-controller',
    watches: [
      { gvr: SERVICES, keysFor: index.ownerKeys },
      { gvr: PODS, keysFor: index.podKeys },
    ],
    reconcile(key: string, ctx: RequestContext): void {
      const { namespace, name } = splitKey(key);
      const service = getObject(cluster, SERVICES, namespace, name, ctx);
      if (!service) {
        try {
          cluster.delete(ENDPOINTS, namespace, name, {}, ctx);
        } catch (err) {
          if (!isNotFound(err)) throw err;
        }
        return;
      }
      if (!selectsPods(service)) return;
      const publishNotReady = serviceSpec(service).publishNotReadyAddresses === true;
      const subsets = subsetsOf(service, backendsOf(cluster, service, ctx, publishNotReady));
      const labels = endpointLabels(service);
      const current = getObject(cluster, ENDPOINTS, namespace, name, ctx);
      const currentSubsets = (current as { subsets?: Subset[] } | undefined)?.subsets ?? [];
      if (current && jsonEqual(currentSubsets, subsets) && jsonEqual(current.metadata.labels ?? {}, labels)) return;

      const endpoints: KubeObject = {
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: {
          ...(current?.metadata ?? { name, namespace }),
          labels,
          annotations: { ...(current?.metadata.annotations ?? {}), [TRIGGER_TIME]: timeString(cluster.clock.now()) },
        },
      };
      if (subsets.length > 0) (endpoints as { subsets?: Subset[] }).subsets = subsets;
      if (current) cluster.update(ENDPOINTS, namespace, name, endpoints, undefined, ctx);
      else cluster.create(ENDPOINTS, namespace, endpoints, ctx);
    },
  };
}
