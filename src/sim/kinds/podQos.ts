import { parseQuantity, Quantity } from '../vocabulary/quantity.ts';
import { isRecord } from './fieldErrors.ts';

// A Pod's quality-of-service class (GetPodQOS), which the API server writes into status.qosClass
// on create: Guaranteed when every container limits cpu and memory and requests equal the limits,
// BestEffort when nothing requests or limits cpu or memory, Burstable otherwise. Only positive
// cpu and memory amounts count; ephemeral containers are left out, as they cannot set resources.

const QOS_RESOURCES = ['cpu', 'memory'];
const ZERO = new Quantity(0n, 1n);

type Totals = Map<string, Quantity>;

/** Adds a container's positive cpu and memory amounts to `totals`; returns which it named. */
function addPositive(totals: Totals, amounts: unknown): Set<string> {
  const found = new Set<string>();
  if (!isRecord(amounts)) return found;
  for (const name of QOS_RESOURCES) {
    const q = parseQuantity(String(amounts[name] ?? ''));
    if (!q || q.compare(ZERO) <= 0) continue;
    found.add(name);
    const sum = totals.get(name);
    totals.set(name, sum ? sum.plus(q, 1n) : q);
  }
  return found;
}

export function podQosClass(spec: unknown): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const s = isRecord(spec) ? spec : {};
  const containers = [s['containers'], s['initContainers']].flatMap((c) => (Array.isArray(c) ? c.filter(isRecord) : []));
  const requests: Totals = new Map();
  const limits: Totals = new Map();
  let guaranteed = true;
  for (const c of containers) {
    const resources = isRecord(c['resources']) ? c['resources'] : {};
    addPositive(requests, resources['requests']);
    const limited = addPositive(limits, resources['limits']);
    if (!QOS_RESOURCES.every((r) => limited.has(r))) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, req] of requests) {
      const lim = limits.get(name);
      if (!lim || lim.compare(req) !== 0) guaranteed = false;
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}
