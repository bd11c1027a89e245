import { isIPv4, isIPv6 } from 'node:net';
import type { KubeObject } from '../../shared/k8s.ts';
import type { Cause } from '../../shared/apiErrors.ts';
import { forbidden, invalid, isRecord, notSupported, records, required } from './fieldErrors.ts';
import { validateLabelSelector } from './labelSelectorObject.ts';

// ValidateNetworkPolicySpec (networking/v1, v1.28): selectors, ports (protocol, number or name,
// endPort), peers (exactly what they select; an ipBlock alone), ipBlocks and policy types.

type Json = Record<string, unknown>;

const PROTOCOLS = ['TCP', 'UDP', 'SCTP'];
const POLICY_TYPES = ['Ingress', 'Egress'];
const PORT_RANGE = 'must be between 1 and 65535, inclusive';

/** IsValidPortName's complaints about a named port. */
export function portNameErrors(name: string): string[] {
  const errs: string[] = [];
  if (name.length > 15) errs.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(name)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(name)) errs.push('must contain at least one letter (a-z)');
  if (name.includes('--')) errs.push('must not contain consecutive hyphens');
  if (name.startsWith('-') || name.endsWith('-')) errs.push('must not begin or end with a hyphen');
  return errs;
}

function validatePort(port: Json, at: string): Cause[] {
  const causes: Cause[] = [];
  if (port.protocol !== undefined && port.protocol !== null && !PROTOCOLS.includes(String(port.protocol))) causes.push(notSupported(`${at}.protocol`, port.protocol, PROTOCOLS));
  const endPort = typeof port.endPort === 'number' ? port.endPort : undefined;
  if (typeof port.port === 'number') {
    if (port.port < 1 || port.port > 65535) causes.push(invalid(`${at}.port`, port.port, PORT_RANGE));
    if (endPort !== undefined) {
      if (endPort < port.port) causes.push(invalid(`${at}.endPort`, port.port, 'must be greater than or equal to `port`'));
      if (endPort < 1 || endPort > 65535) causes.push(invalid(`${at}.endPort`, endPort, PORT_RANGE));
    }
  } else if (typeof port.port === 'string') {
    if (endPort !== undefined) causes.push(invalid(`${at}.endPort`, endPort, 'may not be specified when `port` is non-numeric'));
    for (const msg of portNameErrors(port.port)) causes.push(invalid(`${at}.port`, port.port, msg));
  } else if (endPort !== undefined) {
    causes.push(invalid(`${at}.endPort`, endPort, 'may not be specified when `port` is not specified'));
  }
  return causes;
}

/** An IPv4 or IPv6 CIDR as ValidateCIDR accepts it, as [address bits as a bigint, prefix length, bit width]. */
function parseCidr(cidr: string): [bigint, number, number] | undefined {
  const slash = cidr.indexOf('/');
  if (slash < 0) return undefined;
  const ip = cidr.slice(0, slash);
  const prefix = cidr.slice(slash + 1);
  if (!/^\d+$/.test(prefix)) return undefined;
  const width = isIPv4(ip) ? 32 : isIPv6(ip) ? 128 : 0;
  if (width === 0 || Number(prefix) > width) return undefined;
  if (width === 32) return [ip.split('.').reduce((n, part) => (n << 8n) | BigInt(Number(part)), 0n), Number(prefix), 32];
  const [head = '', tail = ''] = ip.split('::');
  const groups = (s: string): string[] => (s === '' ? [] : s.split(':'));
  const all = ip.includes('::') ? [...groups(head), ...Array<string>(8 - groups(head).length - groups(tail).length).fill('0'), ...groups(tail)] : groups(ip);
  return [all.reduce((n, g) => (n << 16n) | BigInt(parseInt(g, 16)), 0n), Number(prefix), 128];
}

function validateIpBlock(block: Json, at: string): Cause[] {
  const cidr = typeof block.cidr === 'string' ? block.cidr : '';
  if (cidr === '') return [required(`${at}.cidr`)];
  const outer = parseCidr(cidr);
  if (!outer) return [invalid(`${at}.cidr`, cidr, 'not a valid CIDR')];
  const causes: Cause[] = [];
  const except = Array.isArray(block.except) ? block.except.map(String) : [];
  for (const [i, e] of except.entries()) {
    const inner = parseCidr(e);
    if (!inner) return [...causes, invalid(`${at}.except[${i}]`, e, 'not a valid CIDR')];
    const shift = BigInt(outer[2] - outer[1]);
    const inside = inner[2] === outer[2] && inner[0] >> shift === outer[0] >> shift;
    if (!inside || outer[1] >= inner[1]) causes.push(invalid(`${at}.except[${i}]`, e, 'must be a strict subset of `cidr`'));
  }
  return causes;
}

function validatePeer(peer: Json, at: string): Cause[] {
  const causes: Cause[] = [];
  let peers = 0;
  for (const key of ['podSelector', 'namespaceSelector']) {
    if (!isRecord(peer[key])) continue;
    peers++;
    causes.push(...validateLabelSelector(peer[key], `${at}.${key}`));
  }
  const hasBlock = isRecord(peer.ipBlock);
  if (hasBlock) {
    peers++;
    causes.push(...validateIpBlock(peer.ipBlock as Json, `${at}.ipBlock`));
  }
  if (peers === 0) causes.push(required(at, 'must specify a peer'));
  else if (peers > 1 && hasBlock) causes.push(forbidden(at, 'may not specify both ipBlock and another peer'));
  return causes;
}

export function validateNetworkPolicy(o: Readonly<KubeObject>): Cause[] {
  const spec = isRecord(o.spec) ? o.spec : {};
  const causes = validateLabelSelector(spec.podSelector, 'spec.podSelector');
  for (const [direction, peersKey] of [['ingress', 'from'], ['egress', 'to']] as const) {
    records(spec[direction]).forEach((rule, i) => {
      const at = `spec.${direction}[${i}]`;
      records(rule.ports).forEach((p, j) => causes.push(...validatePort(p, `${at}.ports[${j}]`)));
      records(rule[peersKey]).forEach((p, j) => causes.push(...validatePeer(p, `${at}.${peersKey}[${j}]`)));
    });
  }
  const types = Array.isArray(spec.policyTypes) ? spec.policyTypes.map(String) : [];
  if (types.length > 2) {
    const goTypes = `[]networking.PolicyType{${types.map((t) => JSON.stringify(t)).join(', ')}}`;
    return [...causes, { reason: 'FieldValueInvalid', field: 'spec.policyTypes', message: `Invalid value: ${goTypes}: may not specify more than two policyTypes` }];
  }
  types.forEach((t, i) => {
    if (!POLICY_TYPES.includes(t)) causes.push(notSupported(`spec.policyTypes[${i}]`, t, POLICY_TYPES));
  });
  return causes;
}
