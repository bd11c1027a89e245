import type { KubeObject } from '../../shared/k8s.ts';
import type { Cause } from '../../shared/apiErrors.ts';
import { validateName } from '../vocabulary/metadataValidation.ts';
import { invalid, isRecord, notSupported, records, required } from './fieldErrors.ts';
import type { KindStrategy } from './kindStrategy.ts';
import type { KindModule } from './kindModule.ts';
import { AGE_COLUMN, col, list, NAME_COLUMN, str, type Obj as Row } from '../vocabulary/tableCells.ts';

// Ingresses (networking.k8s.io/v1): ValidateIngressSpec — a default backend or rules, every HTTP
// path with a pathType (absolute for Exact and Prefix) and a backend naming a Service and a port.

const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];

function validateBackend(backend: Record<string, unknown>, at: string): Cause[] {
  const service = backend.service;
  if (backend.resource && service) return [invalid(at, '', 'cannot set both resource and service backends')];
  if (backend.resource) return [];
  if (!isRecord(service)) return [invalid(at, '', 'resource or service backend is required')];
  const causes: Cause[] = [];
  if (!service.name) causes.push(required(`${at}.service.name`));
  else causes.push(...validateName(String(service.name), 'dns1035', `${at}.service.name`));
  const port = isRecord(service.port) ? service.port : {};
  const number = typeof port.number === 'number' ? port.number : 0;
  if (port.name && number) causes.push(invalid(at, '', 'cannot set both port name & port number'));
  else if (number && (number < 1 || number > 65535)) causes.push(invalid(`${at}.service.port.number`, number, 'must be between 1 and 65535, inclusive'));
  else if (!port.name && !number) causes.push(required(at, 'port name or number is required'));
  return causes;
}

function validatePath(path: Record<string, unknown>, at: string): Cause[] {
  if (!path.pathType) return [required(`${at}.pathType`, 'pathType must be specified')];
  const causes: Cause[] = [];
  const p = typeof path.path === 'string' ? path.path : '';
  if (!PATH_TYPES.includes(String(path.pathType))) causes.push(notSupported(`${at}.pathType`, path.pathType, PATH_TYPES));
  else if ((path.pathType !== 'ImplementationSpecific' || p !== '') && !p.startsWith('/')) causes.push(invalid(`${at}.path`, p, 'must be an absolute path'));
  causes.push(...validateBackend(isRecord(path.backend) ? path.backend : {}, `${at}.backend`));
  return causes;
}

export const ingressStrategy: KindStrategy = {
  validate(o: Readonly<KubeObject>): Cause[] {
    const spec = isRecord(o.spec) ? o.spec : {};
    const rules = records(spec.rules);
    const causes: Cause[] = [];
    if (rules.length === 0 && !isRecord(spec.defaultBackend)) {
      causes.push({ reason: 'FieldValueInvalid', field: 'spec', message: 'Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be specified' });
    }
    if (isRecord(spec.defaultBackend)) causes.push(...validateBackend(spec.defaultBackend, 'spec.defaultBackend'));
    rules.forEach((rule, i) => {
      const at = `spec.rules[${i}]`;
      if (typeof rule.host === 'string' && rule.host !== '' && !rule.host.includes('*')) causes.push(...validateName(rule.host, 'subdomain', `${at}.host`));
      if (!isRecord(rule.http)) return;
      const paths = records(rule.http.paths);
      if (paths.length === 0) causes.push(required(`${at}.http.paths`));
      paths.forEach((path, j) => causes.push(...validatePath(path, `${at}.http.paths[${j}]`)));
    });
    return causes;
  },
};

/** formatHosts: the rules' hosts, at most four and then how many rules are left; `*` when none names one. */
function hosts(o: Row): string {
  const rules = list(o, 'spec.rules');
  const shown: string[] = [];
  let more = false;
  for (const rule of rules) {
    if (shown.length === 4) more = true;
    if (!more && typeof rule['host'] === 'string' && rule['host'] !== '') shown.push(rule['host']);
  }
  if (shown.length === 0) return '*';
  return more ? `${shown.join(',')} + ${rules.length - 4} more...` : shown.join(',');
}

/**
 * The load balancer's IPs (else hostnames), sorted and de-duplicated. Server-side tables are
 * printed wide, so the address is not clipped to 16 characters as kubectl's own printer would.
 */
function address(o: Row): string {
  const found = new Set<string>();
  for (const i of list(o, 'status.loadBalancer.ingress')) {
    if (typeof i['ip'] === 'string' && i['ip'] !== '') found.add(i['ip']);
    else if (typeof i['hostname'] === 'string' && i['hostname'] !== '') found.add(i['hostname']);
  }
  return [...found].sort().join(',');
}

export const ingressKind: KindModule = {
  api: { group: 'networking.k8s.io', version: 'v1', resource: 'ingresses', kind: 'Ingress', shortNames: ['ing'], status: true },
  strategy: ingressStrategy,
  generation: true,
  zeroStatus: () => ({ loadBalancer: {} }),
  columns: [
    NAME_COLUMN,
    col('Class', (o) => str(o, 'spec.ingressClassName', '<none>'), 'string', 0, 'The name of the IngressClass resource that should be used for this ingress.'),
    col('Hosts', hosts, 'string', 0, 'Hosts that incoming requests are matched against before the ingress rule'),
    col('Address', address, 'string', 0, 'Address is a list containing ingress points for the load-balancer'),
    col('Ports', (o) => (list(o, 'spec.tls').length > 0 ? '80, 443' : '80'), 'string', 0, 'Ports of TLS configurations that open'),
    AGE_COLUMN,
  ],
};
