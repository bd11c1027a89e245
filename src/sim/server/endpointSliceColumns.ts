// `kubectl get` columns for EndpointSlice (printEndpointSlice): at most three ports and three
// addresses, then how many more.
import { AGE_COLUMN, col, list, NAME_COLUMN, str, type Obj, type TableColumn } from './tableCells.ts';

const SHOWN = 3;

/** listWithMoreString: the first three, `+ N more...` after them, `<unset>` for none. */
function firstThree(values: string[]): string {
  const shown = values.slice(0, SHOWN).join(',');
  if (values.length > SHOWN) return `${shown} + ${values.length - SHOWN} more...`;
  return shown === '' ? '<unset>' : shown;
}

/** formatDiscoveryPorts: the port number, else its name, else `*` (all ports). */
function ports(o: Obj): string {
  return firstThree(list(o, 'ports').map((p) => (typeof p['port'] === 'number' ? String(p['port']) : typeof p['name'] === 'string' ? p['name'] : '*')));
}

/** formatDiscoveryEndpoints: every endpoint's addresses, in order. */
function endpoints(o: Obj): string {
  return firstThree(list(o, 'endpoints').flatMap((e) => (Array.isArray(e['addresses']) ? e['addresses'].map(String) : [])));
}

export const ENDPOINT_SLICE_COLUMNS: Record<string, TableColumn[]> = {
  endpointslices: [
    NAME_COLUMN,
    col('AddressType', (o) => str(o, 'addressType'), 'string', 0, 'addressType specifies the type of address carried by this EndpointSlice.'),
    col('Ports', ports, 'string', 0, 'ports specifies the list of network ports exposed by each endpoint in this slice.'),
    col('Endpoints', endpoints, 'string', 0, 'endpoints is a list of unique endpoints in this slice.'),
    AGE_COLUMN,
  ],
};
