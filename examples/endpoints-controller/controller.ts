// The endpoints controller: for every Service with a selector, an Endpoints object of the same name
// lists the IPs of the Pods the selector matches — ready ones under `addresses`, the others under
// `notReadyAddresses`. Pod events map to the Services that select the Pod (a `watches` mapping that
// reads the cache). The simulated cluster has no kubelet: the scenario gives Pods their IPs.
import { defineController, type KubeObject } from 'controller-lab';

interface Service extends KubeObject {
  spec: { selector?: Record<string, string>; ports?: { name?: string; port: number; targetPort?: number | string; protocol?: string }[] };
}
interface Pod extends KubeObject {
  status?: { podIP?: string; conditions?: { type: string; status: string }[] };
}

const selects = (svc: Service, pod: KubeObject) =>
  !!svc.spec?.selector && Object.entries(svc.spec.selector).every(([k, v]) => pod.metadata.labels?.[k] === v);

export default defineController({
  name: 'endpoints-controller',
  for: { apiVersion: 'v1', kind: 'Service' },
  owns: [{ apiVersion: 'v1', kind: 'Endpoints' }],
  watches: [
    {
      apiVersion: 'v1',
      kind: 'Pod',
      map: (pod, cache) =>
        cache
          .list<Service>('Service', { namespace: pod.metadata.namespace })
          .filter((svc) => selects(svc, pod))
          .map((svc) => ({ namespace: svc.metadata.namespace ?? '', name: svc.metadata.name ?? '' })),
    },
  ],

  async reconcile(req, ctx) {
    const svc = ctx.get<Service>('Service', req.namespace, req.name);
    if (!svc?.spec.selector) return; // gone (its Endpoints are garbage-collected), or endpoints managed by hand

    const pods = ctx.list<Pod>('Pod', { namespace: req.namespace, labelSelector: svc.spec.selector }).filter((p) => !p.metadata.deletionTimestamp && p.status?.podIP);
    const address = (p: Pod) => ({ ip: p.status?.podIP ?? '', targetRef: { kind: 'Pod', namespace: req.namespace, name: p.metadata.name ?? '', uid: p.metadata.uid ?? '' } });
    const isReady = (p: Pod) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
    const byIp = (a: { ip: string }, b: { ip: string }) => a.ip.localeCompare(b.ip);
    const addresses = pods.filter(isReady).map(address).sort(byIp);
    const notReadyAddresses = pods.filter((p) => !isReady(p)).map(address).sort(byIp);
    const ports = (svc.spec.ports ?? []).map((p) => ({ name: p.name, port: typeof p.targetPort === 'number' ? p.targetPort : p.port, protocol: p.protocol ?? 'TCP' }));
    const subsets = addresses.length + notReadyAddresses.length > 0 ? [{ addresses, notReadyAddresses, ports }] : [];

    const existing = ctx.get('Endpoints', req.namespace, req.name);
    if (!existing) {
      ctx.log.info(`creating endpoints with ${addresses.length} ready address(es)`);
      await ctx.client.create({
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: {
          name: req.name,
          namespace: req.namespace,
          labels: svc.metadata.labels,
          ownerReferences: [{ apiVersion: 'v1', kind: 'Service', name: req.name, uid: svc.metadata.uid ?? '', controller: true, blockOwnerDeletion: true }],
        },
        subsets,
      });
      return;
    }
    if (JSON.stringify(existing['subsets'] ?? []) === JSON.stringify(subsets)) return; // already right
    ctx.log.info(`updating endpoints: ${addresses.map((a) => a.ip).join(', ') || 'no ready addresses'}`);
    await ctx.client.update({ ...existing, subsets });
  },
});
