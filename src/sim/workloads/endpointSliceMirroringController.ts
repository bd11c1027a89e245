import { isNotFound } from '../../shared/apiError.ts';
import type { KubeObject } from '../../shared/k8s.ts';
import { objectKey, splitKey } from '../../shared/keys.ts';
import type { RequestContext } from '../store/types.ts';
import { jsonEqual } from '../vocabulary/jsonEqual.ts';
import type { ControllerDefinition } from './controllerLoop.ts';
import { ENDPOINTS } from './endpointsController.ts';
import { ENDPOINT_SLICES } from './endpointSliceController.ts';
import { controllerRef } from './pods.ts';
import { SERVICES } from './serviceBackends.ts';
import { getObject, listObjects, type WorkloadCluster } from './workloadCluster.ts';

// The EndpointSlice mirroring controller (pkg/controller/endpointslicemirroring): a Service without
// a selector gets its endpoints from an Endpoints object someone writes by hand; this mirrors that
// object into EndpointSlices (owned by the Endpoints), one per set of ports and address type, at
// most 1000 addresses each, and removes them when the Endpoints, its Service or the Service's
// lack of a selector goes. Endpoints labelled skip-mirror or used for leader election are left alone.

const SERVICE_NAME = 'kubernetes.io/service-name';
const MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';
const CONTROLLER = 'endpointslicemirroring-controller.k8s.io';
const SKIP_MIRROR = 'endpointslice.kubernetes.io/skip-mirror';
const LEADER_ANNOTATION = 'control-plane.alpha.kubernetes.io/leader';
/** Annotations an Endpoints carries that a slice does not take over. */
const NOT_COPIED = ['endpoints.kubernetes.io/last-change-trigger-time', 'kubectl.kubernetes.io/last-applied-configuration'];
const MAX_PER_SLICE = 1000;

interface Address { ip?: string; hostname?: string; nodeName?: string; targetRef?: unknown }
interface Subset { addresses?: Address[]; notReadyAddresses?: Address[]; ports?: { name?: string; port?: number; protocol?: string; appProtocol?: string }[] }
type Slice = KubeObject & { addressType?: string; ports?: unknown[]; endpoints?: unknown[] };

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function addressType(ip: string): 'IPv4' | 'IPv6' | undefined {
  const v4 = IPV4.exec(ip);
  if (v4) return v4.slice(1).every((n) => Number(n) <= 255) ? 'IPv4' : undefined;
  return ip.includes(':') && /^[0-9a-fA-F:.]+$/.test(ip) ? 'IPv6' : undefined;
}

/** An Endpoints address as a slice's endpoint (addressToEndpoint). */
function endpointOf(a: Address, ready: boolean): Record<string, unknown> {
  const e: Record<string, unknown> = { addresses: [a.ip], conditions: { ready } };
  if (a.targetRef) e['targetRef'] = a.targetRef;
  if (a.nodeName) e['nodeName'] = a.nodeName;
  if (a.hostname) e['hostname'] = a.hostname;
  return e;
}

/** Desired slice contents by `addressType ports` key: the ports and every endpoint, in order. */
function desired(subsets: Subset[]): Map<string, { addressType: string; ports: unknown[]; endpoints: Record<string, unknown>[] }> {
  const byKey = new Map<string, { addressType: string; ports: unknown[]; endpoints: Record<string, unknown>[] }>();
  for (const subset of subsets) {
    const ports = (subset.ports ?? []).map((p) => ({ name: p.name ?? '', port: p.port, protocol: p.protocol ?? 'TCP', ...(p.appProtocol ? { appProtocol: p.appProtocol } : {}) }));
    const take = (addresses: Address[] | undefined, ready: boolean): void => {
      for (const a of addresses ?? []) {
        const type = addressType(a.ip ?? '');
        if (!type) continue; // kube-controller-manager skips invalid IPs with a warning event
        const key = `${type} ${JSON.stringify(ports)}`;
        let entry = byKey.get(key);
        if (!entry) byKey.set(key, (entry = { addressType: type, ports, endpoints: [] }));
        entry.endpoints.push(endpointOf(a, ready));
      }
    };
    take(subset.addresses, true);
    take(subset.notReadyAddresses, false);
  }
  return byKey;
}

const sliceKey = (s: Slice): string => `${s.addressType ?? ''} ${JSON.stringify(s.ports ?? [])}`;

export function endpointSliceMirroringController(cluster: WorkloadCluster): ControllerDefinition {
  const deleteSlice = (slice: Readonly<KubeObject>, ctx: RequestContext): void => {
    try {
      cluster.delete(ENDPOINT_SLICES, slice.metadata.namespace ?? '', slice.metadata.name ?? '', {}, ctx);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  };

  return {
    name: 'endpointslicemirroring-controller',
    watches: [
      { gvr: ENDPOINTS, keysFor: (e) => [objectKey(e)] },
      { gvr: SERVICES, keysFor: (s) => [objectKey(s)] },
      {
        gvr: ENDPOINT_SLICES,
        keysFor: (s) => (s.metadata.labels?.[MANAGED_BY] === CONTROLLER && s.metadata.labels[SERVICE_NAME] ? [`${s.metadata.namespace ?? ''}/${s.metadata.labels[SERVICE_NAME]}`] : []),
      },
    ],
    reconcile(key: string, ctx: RequestContext): void {
      const { namespace, name } = splitKey(key);
      const mirrored = listObjects(cluster, ENDPOINT_SLICES, namespace, ctx, `${SERVICE_NAME}=${name},${MANAGED_BY}=${CONTROLLER}`) as Slice[];
      const endpoints = getObject(cluster, ENDPOINTS, namespace, name, ctx);
      const service = getObject(cluster, SERVICES, namespace, name, ctx);
      const mirror = endpoints && service && (service.spec as { selector?: unknown } | undefined)?.selector === undefined
        && endpoints.metadata.labels?.[SKIP_MIRROR] !== 'true' && endpoints.metadata.annotations?.[LEADER_ANNOTATION] === undefined;
      if (!mirror) {
        for (const slice of mirrored) deleteSlice(slice, ctx);
        return;
      }

      const labels = { ...(endpoints.metadata.labels ?? {}), [SERVICE_NAME]: name, [MANAGED_BY]: CONTROLLER };
      const annotations = Object.fromEntries(Object.entries(endpoints.metadata.annotations ?? {}).filter(([k]) => !NOT_COPIED.includes(k)));
      const existingByKey = new Map<string, Slice[]>();
      for (const s of mirrored.sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''))) {
        const list = existingByKey.get(sliceKey(s)) ?? [];
        list.push(s);
        existingByKey.set(sliceKey(s), list);
      }
      for (const [key, want] of desired((endpoints as { subsets?: Subset[] }).subsets ?? [])) {
        const existing = existingByKey.get(key) ?? [];
        existingByKey.delete(key);
        for (let i = 0; i * MAX_PER_SLICE < want.endpoints.length; i++) {
          const content = want.endpoints.slice(i * MAX_PER_SLICE, (i + 1) * MAX_PER_SLICE);
          const current = existing[i];
          if (current && jsonEqual(current.endpoints ?? [], content) && jsonEqual(current.metadata.labels ?? {}, labels) && jsonEqual(current.metadata.annotations ?? {}, annotations)) continue;
          const slice: Slice = {
            apiVersion: 'discovery.k8s.io/v1',
            kind: 'EndpointSlice',
            metadata: current
              ? { ...structuredClone(current.metadata), labels, annotations }
              : { generateName: `${name}-`, namespace, labels, annotations, ownerReferences: [controllerRef(endpoints, 'v1', 'Endpoints')] },
            addressType: want.addressType,
            ports: want.ports,
            endpoints: content,
          };
          if (current) cluster.update(ENDPOINT_SLICES, namespace, current.metadata.name ?? '', slice, undefined, ctx);
          else cluster.create(ENDPOINT_SLICES, namespace, slice, ctx);
        }
        for (const extra of existing.slice(Math.ceil(want.endpoints.length / MAX_PER_SLICE))) deleteSlice(extra, ctx);
      }
      // Slices for ports or address types the Endpoints no longer has.
      for (const stale of existingByKey.values()) for (const slice of stale) deleteSlice(slice, ctx);
    },
  };
}
