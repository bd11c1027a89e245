import { items, setDefault, type Obj } from './defaulting.ts';
import type { KindModule } from './kindModule.ts';
import type { KindStrategy } from './kindStrategy.ts';
import { validateEndpointSlice, validateEndpointSliceUpdate } from './endpointSliceValidation.ts';
import { AGE_COLUMN, col, list, NAME_COLUMN, str, type Obj as Row } from '../vocabulary/tableCells.ts';

// EndpointSlices (discovery.k8s.io/v1).

const SHOWN = 3;

/** listWithMoreString: the first three, `+ N more...` after them, `<unset>` for none. */
function firstThree(values: string[]): string {
  const shown = values.slice(0, SHOWN).join(',');
  if (values.length > SHOWN) return `${shown} + ${values.length - SHOWN} more...`;
  return shown === '' ? '<unset>' : shown;
}

/** formatDiscoveryPorts: the port number, else its name, else `*` (all ports). */
function ports(o: Row): string {
  return firstThree(list(o, 'ports').map((p) => (typeof p['port'] === 'number' ? String(p['port']) : typeof p['name'] === 'string' ? p['name'] : '*')));
}

/** formatDiscoveryEndpoints: every endpoint's addresses, in order. */
function endpoints(o: Row): string {
  return firstThree(list(o, 'endpoints').flatMap((e) => (Array.isArray(e['addresses']) ? e['addresses'].map(String) : [])));
}

export const endpointSliceStrategy: KindStrategy = {
  /** SetDefaults_EndpointPort: a port without a name gets "" (a pointer in Go, so it shows), and TCP. */
  defaults(o): void {
    for (const port of items(o as Obj, 'ports')) {
      setDefault(port, 'name', '');
      setDefault(port, 'protocol', 'TCP');
    }
  },
  validate: validateEndpointSlice,
  validateUpdate: validateEndpointSliceUpdate,
};

export const endpointSliceKind: KindModule = {
  api: { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices', kind: 'EndpointSlice' },
  strategy: endpointSliceStrategy,
  generation: true,
  columns: [
    NAME_COLUMN,
    col('AddressType', (o) => str(o, 'addressType'), 'string', 0, 'addressType specifies the type of address carried by this EndpointSlice.'),
    col('Ports', ports, 'string', 0, 'ports specifies the list of network ports exposed by each endpoint in this slice.'),
    col('Endpoints', endpoints, 'string', 0, 'endpoints is a list of unique endpoints in this slice.'),
    AGE_COLUMN,
  ],
};
