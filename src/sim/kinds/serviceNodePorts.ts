import type { KubeObject } from '../../shared/k8s.ts';
import type { StoredObjects } from './kindStrategy.ts';
import type { Cause } from '../../shared/apiErrors.ts';

// Node ports, as kube-apiserver's allocator hands them out: each port of a NodePort or
// LoadBalancer Service (unless it turned node ports off) gets a free one in 30000–32767; a port
// the request names is kept, and an update that leaves them out keeps the allocated ones.

type Port = { port?: number; protocol?: string; nodePort?: number };
type ServiceSpec = { type?: string; ports?: Port[]; allocateLoadBalancerNodePorts?: boolean };

const FIRST = 30000;
const RANGE = 2768;

function wantsNodePorts(spec: ServiceSpec): boolean {
  return spec.type === 'NodePort' || (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false);
}

export function allocateNodePorts(obj: KubeObject, stored: StoredObjects): void {
  const spec = (obj as { spec?: ServiceSpec }).spec;
  if (!spec || !wantsNodePorts(spec) || !Array.isArray(spec.ports)) return;
  const used = new Set<number>();
  for (const s of stored.list('', 'services')) for (const p of ((s.spec as ServiceSpec | undefined)?.ports ?? [])) if (p.nodePort) used.add(p.nodePort);
  for (const p of spec.ports) if (p.nodePort) used.add(p.nodePort);
  // A random start, as the real allocator's, so ports do not look sequential; the first free one from there.
  let next = Math.floor(Math.random() * RANGE);
  for (const p of spec.ports) {
    if (p.nodePort) continue;
    for (let tries = 0; tries < RANGE; tries++, next++) {
      const candidate = FIRST + (next % RANGE);
      if (!used.has(candidate)) {
        p.nodePort = candidate;
        used.add(candidate);
        break;
      }
    }
  }
}

/** An update that leaves a port's nodePort out keeps the one allocated to the same port and protocol. */
export function keepNodePorts(before: Readonly<KubeObject>, next: KubeObject): void {
  const was = (before as { spec?: ServiceSpec }).spec?.ports ?? [];
  const spec = (next as { spec?: ServiceSpec }).spec;
  if (!spec || !wantsNodePorts(spec)) return;
  for (const p of spec.ports ?? []) {
    if (p.nodePort) continue;
    const same = was.find((w) => w.port === p.port && (w.protocol ?? 'TCP') === (p.protocol ?? 'TCP'));
    if (same?.nodePort) p.nodePort = same.nodePort;
  }
}

/** A nodePort the request names outside the range is refused by the allocator, after validation. */
export function nodePortRangeCauses(obj: Readonly<KubeObject>): Cause[] {
  const spec = (obj as { spec?: ServiceSpec }).spec;
  if (!spec || !Array.isArray(spec.ports)) return [];
  const causes: Cause[] = [];
  spec.ports.forEach((p, i) => {
    if (typeof p?.nodePort !== 'number' || p.nodePort === 0 || (p.nodePort >= FIRST && p.nodePort < FIRST + RANGE)) return;
    causes.push({
      reason: 'FieldValueInvalid', field: `spec.ports[${i}].nodePort`,
      message: `Invalid value: ${p.nodePort}: provided port is not in the valid range. The range of valid ports is ${FIRST}-${FIRST + RANGE - 1}`,
    });
  });
  return causes;
}
