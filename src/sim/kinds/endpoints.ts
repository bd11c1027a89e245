import type { KindModule } from './kindModule.ts';
import { AGE_COLUMN, col, list, NAME_COLUMN, type Obj } from '../vocabulary/tableCells.ts';

// Endpoints (core v1): stored as written but for the ports' protocol; `kubectl get ep` shows the addresses (printEndpoints).

const SHOWN = 3;

/** formatEndpoints: `ip:port` for every address and port (just the IP when a subset has no ports), three at most then `+ N more...`. */
function endpoints(o: Obj): string {
  const subsets = list(o, 'subsets');
  if (subsets.length === 0) return '<none>';
  const all: string[] = [];
  for (const subset of subsets) {
    const addresses = list(subset, 'addresses').map((a) => String(a['ip'] ?? ''));
    const ports = list(subset, 'ports');
    if (ports.length === 0) all.push(...addresses);
    for (const port of ports) for (const ip of addresses) all.push(ip.includes(':') ? `[${ip}]:${String(port['port'])}` : `${ip}:${String(port['port'])}`);
  }
  const shown = all.slice(0, SHOWN).join(',');
  return all.length > SHOWN ? `${shown} + ${all.length - SHOWN} more...` : shown;
}

export const endpointsKind: KindModule = {
  api: { group: '', version: 'v1', resource: 'endpoints', kind: 'Endpoints', shortNames: ['ep'] },
  // SetDefaults_EndpointPort: a port's protocol is TCP unless it says.
  strategy: { defaults: (o) => { for (const subset of list(o, 'subsets')) for (const port of list(subset, 'ports')) port['protocol'] ??= 'TCP'; } },
  columns: [NAME_COLUMN, col('Endpoints', endpoints, 'string', 0, 'The set of all endpoints is the union of all subsets.'), AGE_COLUMN],
};
