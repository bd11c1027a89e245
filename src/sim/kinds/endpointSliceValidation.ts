import { isIPv4, isIPv6 } from 'node:net';
import type { KubeObject } from '../../shared/k8s.ts';
import type { Cause } from '../../shared/apiErrors.ts';
import { validateName } from '../vocabulary/metadataValidation.ts';
import { duplicate, immutable, invalid, notSupported, records, required } from './fieldErrors.ts';

// ValidateEndpointSlice[Update] (discovery/v1, v1.28): a known address type that never changes,
// endpoints with addresses of that type, ports with unique DNS-label names and a protocol.

const ADDRESS_TYPES = ['FQDN', 'IPv4', 'IPv6'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

function validateAddress(address: string, type: string, at: string): Cause[] {
  if (type === 'IPv4' || type === 'IPv6') {
    // ValidateNonSpecialIP (no loopback, link-local or unspecified address) is left out: the sim
    // serves on 127.0.0.1, and its own `kubernetes` EndpointSlice names that address.
    const ok = type === 'IPv4' ? isIPv4(address) : isIPv6(address);
    const causes = ok ? [] : [invalid(at, address, `must be a valid ${type} address`)];
    if (!isIPv4(address) && !isIPv6(address)) causes.push(invalid(at, address, 'must be a valid IP address'));
    return causes;
  }
  if (type === 'FQDN') {
    // IsFullyQualifiedDomainName: a subdomain (a trailing dot aside) of at least two labels.
    if (address === '') return [required(at)];
    const name = address.toLowerCase().replace(/\.$/, '');
    const errs = validateName(name, 'subdomain', at).map((c) => c.message.replace(/^Invalid value: "[^"]*": /, ''));
    if (errs.length > 0) return [invalid(at, name, errs.join(','))];
    if (name.split('.').length < 2) return [invalid(at, name, 'should be a domain with at least two segments separated by dots')];
  }
  return [];
}

export function validateEndpointSlice(o: Readonly<KubeObject>): Cause[] {
  const causes: Cause[] = [];
  const type = typeof o.addressType === 'string' ? o.addressType : '';
  if (type === '') causes.push(required('addressType'));
  else if (!ADDRESS_TYPES.includes(type)) causes.push(notSupported('addressType', type, ADDRESS_TYPES));
  records(o.endpoints).forEach((endpoint, i) => {
    const at = `endpoints[${i}]`;
    const addresses = Array.isArray(endpoint.addresses) ? endpoint.addresses.map(String) : [];
    if (addresses.length === 0) causes.push(required(`${at}.addresses`, 'must contain at least 1 address'));
    else if (addresses.length > 100) causes.push({ reason: 'FieldValueTooMany', field: `${at}.addresses`, message: `Too many: ${addresses.length}: must have at most 100 items` });
    addresses.forEach((a, j) => causes.push(...validateAddress(a, type, `${at}.addresses[${j}]`)));
    if (typeof endpoint.hostname === 'string') causes.push(...validateName(endpoint.hostname, 'label', `${at}.hostname`));
  });
  const names = new Set<string>();
  records(o.ports).forEach((port, i) => {
    const at = `ports[${i}]`;
    const name = typeof port.name === 'string' ? port.name : '';
    if (name !== '') causes.push(...validateName(name, 'label', `${at}.name`));
    if (names.has(name)) causes.push(duplicate(`${at}.name`, name));
    names.add(name);
    if (port.protocol === undefined || port.protocol === null) causes.push(required(`${at}.protocol`));
    else if (!PROTOCOLS.includes(String(port.protocol))) causes.push(notSupported(`${at}.protocol`, port.protocol, PROTOCOLS));
  });
  return causes;
}

export function validateEndpointSliceUpdate(before: Readonly<KubeObject>, after: Readonly<KubeObject>): Cause[] {
  return immutable('addressType', before.addressType, after.addressType);
}
