import { Quantity } from './quantity.ts';
import { resourceList } from './resourceList.ts';

// A Pod's QoS class (GetPodQOS in pkg/apis/core/v1/helper/qos), from its containers' cpu and
// memory alone: BestEffort when none asks for or limits either, Guaranteed when every container
// limits both and every request equals its limit, else Burstable. The API server writes it into
// status.qosClass when the Pod is created; quota scopes read it.

export type QosClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

interface Container {
  resources?: { requests?: unknown; limits?: unknown };
}

const QOS_RESOURCES = ['cpu', 'memory'];
const ZERO = new Quantity(0n, 1n);

export function podQosClass(spec: unknown): QosClass {
  const s = (spec ?? {}) as { containers?: unknown; initContainers?: unknown };
  const containers = [s.initContainers, s.containers].flatMap((l) => (Array.isArray(l) ? l : [])) as Container[];
  const requests = new Map<string, Quantity>();
  const limits = new Map<string, Quantity>();
  let guaranteed = true;
  for (const c of containers) {
    for (const [name, q] of resourceList(c.resources?.requests)) {
      if (QOS_RESOURCES.includes(name) && q.compare(ZERO) > 0) requests.set(name, (requests.get(name) ?? ZERO).plus(q, 1n));
    }
    const limited = new Set<string>();
    for (const [name, q] of resourceList(c.resources?.limits)) {
      if (!QOS_RESOURCES.includes(name) || q.compare(ZERO) <= 0) continue;
      limited.add(name);
      limits.set(name, (limits.get(name) ?? ZERO).plus(q, 1n));
    }
    if (!QOS_RESOURCES.every((r) => limited.has(r))) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) for (const [name, q] of requests) if (limits.get(name)?.compare(q) !== 0) guaranteed = false;
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}
