import { isNotFound } from '../../shared/apiError.ts';
import { splitKey } from '../../shared/keys.ts';
import type { GroupVersionResource, KubeObject } from '../../shared/k8s.ts';
import { jsonEqual } from '../vocabulary/jsonEqual.ts';
import type { RequestContext } from '../store/types.ts';
import type { ControllerDefinition } from './controllerLoop.ts';
import { PodSelectors } from './podSelectors.ts';
import { controllerRef, timeString } from './pods.ts';
import { backendsOf, endpointLabels, podReference, selectsPods, podSelectorOf, SERVICES, type Backend, type BackendPort } from './serviceBackends.ts';
import { listObjects, NODES, PODS, type WorkloadCluster } from './workloadCluster.ts';

// The EndpointSlice controller (pkg/controller/endpointslice): for each Service with a selector,
// EndpointSlices owned by it listing its Pods (terminating ones too, with their conditions), one
// slice per set of ports and at most 100 endpoints each; a Service without Pods keeps one empty
// placeholder slice. Slices are updated in place and only when what they list changed.

export const ENDPOINT_SLICES: GroupVersionResource = { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices' };
const SERVICE_NAME = 'kubernetes.io/service-name';
const MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';
const CONTROLLER = 'endpointslice-controller.k8s.io';
const TRIGGER_TIME = 'endpoints.kubernetes.io/last-change-trigger-time';
const ZONE = 'topology.kubernetes.io/zone';
const MAX_ENDPOINTS_PER_SLICE = 100;

interface SliceContent {
  endpoints: Record<string, unknown>[];
  ports?: BackendPort[];
}

function endpoint(b: Backend, zones: Map<string, string>): Record<string, unknown> {
  const e: Record<string, unknown> = {
    addresses: [b.ip],
    // Ready is never true for a terminating Pod (unless the Service publishes not-ready addresses).
    conditions: { ready: b.ready && !b.terminating, serving: b.ready, terminating: b.terminating },
  };
  if (b.hostname) e.hostname = b.hostname;
  e.targetRef = podReference(b.pod);
  if (b.nodeName) {
    e.nodeName = b.nodeName;
    const zone = zones.get(b.nodeName);
    if (zone) e.zone = zone;
  }
  return e;
}

function desiredSlices(backends: Backend[], zones: Map<string, string>): SliceContent[] {
  const byPorts = new Map<string, Record<string, unknown>[]>();
  for (const b of backends) {
    const signature = JSON.stringify(b.ports);
    let list = byPorts.get(signature);
    if (!list) byPorts.set(signature, (list = []));
    list.push(endpoint(b, zones));
  }
  const slices: SliceContent[] = [];
  for (const [signature, endpoints] of byPorts) {
    for (let i = 0; i < endpoints.length; i += MAX_ENDPOINTS_PER_SLICE) slices.push({ endpoints: endpoints.slice(i, i + MAX_ENDPOINTS_PER_SLICE), ports: JSON.parse(signature) as BackendPort[] });
  }
  return slices.length > 0 ? slices : [{ endpoints: [] }];
}

function zonesOf(cluster: WorkloadCluster, ctx: RequestContext): Map<string, string> {
  const zones = new Map<string, string>();
  for (const node of listObjects(cluster, NODES, '', ctx)) {
    const zone = node.metadata.labels?.[ZONE];
    if (zone) zones.set(node.metadata.name ?? '', zone);
  }
  return zones;
}

export function endpointSliceController(cluster: WorkloadCluster): ControllerDefinition {
  const index = new PodSelectors(podSelectorOf);
  return {
    name: 'endpointslice-controller',
    watches: [
      { gvr: SERVICES, keysFor: index.ownerKeys },
      { gvr: PODS, keysFor: index.podKeys },
    ],
    reconcile(key: string, ctx: RequestContext): void {
      const { namespace, name } = splitKey(key);
      const owned = listObjects(cluster, ENDPOINT_SLICES, namespace, ctx, `${SERVICE_NAME}=${name},${MANAGED_BY}=${CONTROLLER}`)
        .sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
      let service: Readonly<KubeObject> | undefined;
      try {
        service = cluster.get(SERVICES, namespace, name, undefined, ctx).object;
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      const wanted = service && selectsPods(service) ? desiredSlices(backendsOf(cluster, service, ctx, true), zonesOf(cluster, ctx)) : [];
      const labels = service ? endpointLabels(service, { [SERVICE_NAME]: name, [MANAGED_BY]: CONTROLLER }) : {};

      wanted.forEach((content, i) => {
        const existing = owned[i];
        const same = existing && jsonEqual((existing as { endpoints?: unknown }).endpoints ?? [], content.endpoints)
          && jsonEqual((existing as { ports?: unknown }).ports, content.ports) && jsonEqual(existing.metadata.labels ?? {}, labels);
        if (same) return;
        const slice: KubeObject = {
          apiVersion: 'discovery.k8s.io/v1',
          kind: 'EndpointSlice',
          metadata: {
            ...(existing ? structuredClone(existing.metadata) : { generateName: `${name}-`, namespace, ownerReferences: [controllerRef(service!, 'v1', 'Service')] }),
            labels,
            annotations: { ...(existing?.metadata.annotations ?? {}), [TRIGGER_TIME]: timeString(cluster.clock.now()) },
          },
          addressType: 'IPv4',
          endpoints: content.endpoints,
        };
        if (content.ports) (slice as { ports?: BackendPort[] }).ports = content.ports;
        if (existing) cluster.update(ENDPOINT_SLICES, namespace, existing.metadata.name ?? '', slice, undefined, ctx);
        else cluster.create(ENDPOINT_SLICES, namespace, slice, ctx);
      });
      for (const extra of owned.slice(wanted.length)) {
        try {
          cluster.delete(ENDPOINT_SLICES, namespace, extra.metadata.name ?? '', {}, ctx);
        } catch (err) {
          if (!isNotFound(err)) throw err;
        }
      }
    },
  };
}
