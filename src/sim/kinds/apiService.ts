import type { Cause } from '../../shared/apiErrors.ts';
import { obj, type Obj } from './defaulting.ts';
import { invalid, isRecord, required } from './fieldErrors.ts';
import type { KindModule } from './kindModule.ts';
import type { KindStrategy } from './kindStrategy.ts';
import { validateName } from '../vocabulary/metadataValidation.ts';
import { AGE_COLUMN, col, list, NAME_COLUMN, str, type Obj as Row } from '../vocabulary/tableCells.ts';

// APIServices (apiregistration.k8s.io/v1, kube-aggregator's kind): which server answers for a group
// version. The simulated cluster stores and validates them (ValidateAPIService) but proxies to
// none; it is one server. Named `<version>.<group>`; local ones (no service) carry no CA bundle.

const specOf = (o: Readonly<Obj>): Record<string, unknown> => (isRecord(o['spec']) ? o['spec'] : {});

function validateLocalOrService(spec: Record<string, unknown>): Cause[] {
  const service = spec['service'];
  if (!isRecord(service)) {
    const causes: Cause[] = [];
    if (typeof spec['caBundle'] === 'string' && spec['caBundle'] !== '') {
      causes.push(invalid('spec.caBundle', `${Buffer.from(spec['caBundle'], 'base64').length} bytes`, 'local APIServices may not have a caBundle'));
    }
    if (spec['insecureSkipTLSVerify'] === true) causes.push(invalid('spec.insecureSkipTLSVerify', true, 'local APIServices may not have insecureSkipTLSVerify'));
    return causes;
  }
  const causes: Cause[] = [];
  if (!service['namespace']) causes.push(required('spec.service.namespace'));
  if (!service['name']) causes.push(required('spec.service.name'));
  const port = service['port'];
  if (typeof port !== 'number' || port < 1 || port > 65535) causes.push(invalid('spec.service.port', port, 'port is not valid: must be between 1 and 65535, inclusive'));
  if (spec['insecureSkipTLSVerify'] === true && spec['caBundle']) causes.push(invalid('spec.insecureSkipTLSVerify', true, 'may not be true if caBundle is present'));
  return causes;
}

export const apiServiceStrategy: KindStrategy = {
  defaults(o): void {
    const spec = obj(o as Obj, 'spec');
    if (isRecord(spec['service']) && spec['service']['port'] === undefined) spec['service']['port'] = 443;
  },

  validate(o): Cause[] {
    const spec = specOf(o);
    const group = typeof spec['group'] === 'string' ? spec['group'] : '';
    const version = typeof spec['version'] === 'string' ? spec['version'] : '';
    const name = o.metadata.name ?? '';
    const wanted = `${version}.${group}`;
    const causes: Cause[] = [];
    // The store checks the name is a path segment; it must also be the group version's.
    if (validateName(name, 'pathSegment').length === 0 && name !== wanted) causes.push(invalid('metadata.name', name, `must be \`spec.version+"."+spec.group\`: ${JSON.stringify(wanted)}`));
    if (group === '' && version !== 'v1') causes.push(required('spec.group', 'only v1 may have an empty group and it better be legacy kube'));
    if (group !== '') causes.push(...validateName(group, 'subdomain', 'spec.group'));
    causes.push(...validateName(version, 'dns1035', 'spec.version'));
    const groupPriority = Number(spec['groupPriorityMinimum'] ?? 0);
    if (!(groupPriority > 0 && groupPriority <= 20000)) causes.push(invalid('spec.groupPriorityMinimum', groupPriority, 'must be positive and less than 20000'));
    const versionPriority = Number(spec['versionPriority'] ?? 0);
    if (!(versionPriority > 0 && versionPriority <= 1000)) causes.push(invalid('spec.versionPriority', versionPriority, 'must be positive and less than 1000'));
    return [...causes, ...validateLocalOrService(spec)];
  },
};

/** `Local` or the service's namespace/name. */
function service(o: Row): string {
  const namespace = str(o, 'spec.service.namespace');
  const name = str(o, 'spec.service.name');
  return namespace || name ? `${namespace}/${name}` : 'Local';
}

/** The Available condition: `True`, or `False (Reason)`; `Unknown` without one. */
function available(o: Row): string {
  const c = list(o, 'status.conditions').find((x) => x['type'] === 'Available');
  if (!c) return 'Unknown';
  const status = String(c['status'] ?? '');
  return status !== 'True' && c['reason'] ? `${status} (${String(c['reason'])})` : status;
}

export const apiServiceKind: KindModule = {
  api: { group: 'apiregistration.k8s.io', version: 'v1', resource: 'apiservices', kind: 'APIService', namespaced: false, categories: ['api-extensions'], status: true, nameRule: 'pathSegment' },
  strategy: apiServiceStrategy,
  // Its .proto is in kube-aggregator, which the protobuf generator does not read.
  protobuf: false,
  columns: [
    NAME_COLUMN,
    col('Service', service, 'string', 0, 'The reference to the service that hosts this API endpoint.'),
    col('Available', available, 'string', 0, 'Whether this service is available.'),
    AGE_COLUMN,
  ],
};
