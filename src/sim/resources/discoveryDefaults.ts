import { items, setDefault, type Obj } from './defaulting.ts';

// EndpointSlice defaults (discovery/v1 SetDefaults_EndpointPort): a port without a name gets ""
// (a pointer in Go, so it shows), and TCP.

export function endpointSliceDefaults(o: Obj): void {
  for (const port of items(o, 'ports')) {
    setDefault(port, 'name', '');
    setDefault(port, 'protocol', 'TCP');
  }
}
