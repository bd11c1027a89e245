import type { KubeObject } from '../../shared/k8s.ts';
import { isObj, obj, setDefault, type Obj } from './defaulting.ts';
import type { Cause } from '../../shared/apiErrors.ts';
import { validateLabels, validateName } from '../vocabulary/metadataValidation.ts';
import { duplicate, forbidden, invalid, isRecord, notSupported, records, required } from './fieldErrors.ts';
import type { KindStrategy, StoredObjects } from './kindStrategy.ts';
import type { KindModule } from './kindModule.ts';
import { allocateClusterIp } from './serviceClusterIp.ts';
import { allocateNodePorts, keepNodePorts, nodePortRangeCauses } from './serviceNodePorts.ts';
import { AGE_COLUMN, col, field, labelsText, NAME_COLUMN, str, type Obj as Row } from '../vocabulary/tableCells.ts';

// Services: SetDefaults_Service (type ClusterIP, sessionAffinity None, port protocol TCP,
// targetPort = port, single-stack IPv4), the checks of ValidateService a controller's Service
// meets, and a cluster IP that stays once allocated (the store allocates it on create): an
// update that leaves it out keeps it, one that changes it is refused.

const TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

type ServiceSpec = { type?: string; clusterIP?: string; clusterIPs?: string[] };

function validatePort(p: Record<string, unknown>, at: string, requireName: boolean, names: Set<string>): Cause[] {
  const causes: Cause[] = [];
  const name = typeof p.name === 'string' ? p.name : '';
  if (requireName && name === '') causes.push(required(`${at}.name`));
  else if (name !== '') {
    causes.push(...validateName(name, 'label', `${at}.name`));
    if (names.has(name)) causes.push(duplicate(`${at}.name`, name));
    names.add(name);
  }
  const port = typeof p.port === 'number' ? p.port : 0;
  if (port < 1 || port > 65535) causes.push(invalid(`${at}.port`, port, 'must be between 1 and 65535, inclusive'));
  if (!p.protocol) causes.push(required(`${at}.protocol`));
  else if (!PROTOCOLS.includes(String(p.protocol))) causes.push(notSupported(`${at}.protocol`, p.protocol, PROTOCOLS));
  if (typeof p.targetPort === 'number' && (p.targetPort < 1 || p.targetPort > 65535)) causes.push(invalid(`${at}.targetPort`, p.targetPort, 'must be between 1 and 65535, inclusive'));
  return causes;
}

/** An update that leaves the IP families out keeps them; one that turns the Service into another type gets them. */
function keepIpFamilies(before: Readonly<KubeObject>, next: KubeObject): void {
  const spec = obj(next as Obj, 'spec');
  if (spec.type === 'ExternalName') return;
  const was = isRecord(before.spec) ? before.spec : {};
  setDefault(spec, 'ipFamilies', Array.isArray(was.ipFamilies) ? [...was.ipFamilies] : ['IPv4']);
  setDefault(spec, 'ipFamilyPolicy', typeof was.ipFamilyPolicy === 'string' ? was.ipFamilyPolicy : 'SingleStack');
}

export const serviceStrategy: KindStrategy = {
  defaults(o: KubeObject): void {
    const spec = obj(o as Obj, 'spec');
    setDefault(spec, 'type', 'ClusterIP');
    setDefault(spec, 'sessionAffinity', 'None');
    // ipFamilies and ipFamilyPolicy are the Service storage's to fill in (prepareForCreate), after
    // the field manager has read the request, so their creator does not own them.
    if (spec.type !== 'ExternalName') setDefault(spec, 'internalTrafficPolicy', 'Cluster');
    if (spec.type === 'NodePort' || spec.type === 'LoadBalancer') setDefault(spec, 'externalTrafficPolicy', 'Cluster');
    if (Array.isArray(spec.ports)) {
      for (const p of spec.ports) {
        if (!isObj(p)) continue;
        setDefault(p, 'protocol', 'TCP');
        // Go clients send an unset IntOrString as 0.
        if (p.targetPort === 0) delete p.targetPort;
        setDefault(p, 'targetPort', p.port);
      }
    }
  },

  validate(o: Readonly<KubeObject>): Cause[] {
    const spec = isRecord(o.spec) ? o.spec : {};
    const causes: Cause[] = [];
    const headless = spec.clusterIP === 'None';
    const ports = records(spec.ports);
    if (ports.length === 0 && !headless && spec.type !== 'ExternalName') causes.push(required('spec.ports'));
    if (spec.type === 'ExternalName') {
      const cname = String(spec.externalName ?? '').replace(/\.$/, '');
      if (cname === '') causes.push(required('spec.externalName'));
      else causes.push(...validateName(cname, 'subdomain', 'spec.externalName'));
    }
    if ((spec.type === 'NodePort' || spec.type === 'LoadBalancer') && headless) {
      causes.push(invalid('spec.clusterIPs[0]', 'None', `may not be set to 'None' for ${spec.type} services`));
    }
    const names = new Set<string>();
    ports.forEach((p, i) => causes.push(...validatePort(p, `spec.ports[${i}]`, ports.length > 1, names)));
    causes.push(...validateLabels(spec.selector, 'spec.selector'));
    const affinity = spec.sessionAffinity ?? '';
    if (affinity === '') causes.push(required('spec.sessionAffinity'));
    else if (affinity !== 'ClientIP' && affinity !== 'None') causes.push(notSupported('spec.sessionAffinity', affinity, ['ClientIP', 'None']));
    else if (affinity === 'None' && spec.sessionAffinityConfig) causes.push(forbidden('spec.sessionAffinityConfig', 'must not be set when session affinity is None'));
    if (!TYPES.includes(String(spec.type ?? ''))) causes.push(notSupported('spec.type', spec.type ?? '', TYPES));
    // The allocator sees only what validation let through.
    return causes.length > 0 ? causes : nodePortRangeCauses(o);
  },

  prepareForCreate(o: KubeObject, stored: StoredObjects): void {
    const spec = obj(o as Obj, 'spec');
    if (spec.type !== 'ExternalName') {
      setDefault(spec, 'ipFamilies', ['IPv4']);
      setDefault(spec, 'ipFamilyPolicy', 'SingleStack');
    }
    allocateClusterIp(o, stored);
    allocateNodePorts(o, stored);
  },

  prepareForUpdate(before: Readonly<KubeObject>, next: KubeObject): void {
    keepNodePorts(before, next);
    keepIpFamilies(before, next);
    // An update that leaves clusterIP out keeps the allocated one (as the real server does since 1.20).
    const was = before.spec as ServiceSpec | undefined;
    const now = next.spec as ServiceSpec | undefined;
    if (!was?.clusterIP || !now) return;
    if (!now.clusterIP) now.clusterIP = was.clusterIP;
    if (!now.clusterIPs && was.clusterIPs) now.clusterIPs = now.clusterIP === was.clusterIP ? [...was.clusterIPs] : [now.clusterIP];
  },

  validateUpdate(before: Readonly<KubeObject>, after: Readonly<KubeObject>): Cause[] {
    const was = (before.spec ?? {}) as ServiceSpec;
    const now = (after.spec ?? {}) as ServiceSpec;
    if (was.type === 'ExternalName' || now.type === 'ExternalName') return [];
    if (was.clusterIP === 'None' && now.clusterIP === 'None') return [];
    if (!was.clusterIP || was.clusterIP === now.clusterIP) return [];
    return [invalid('spec.clusterIPs[0]', now.clusterIPs ?? [now.clusterIP ?? ''], 'may not change once set')];
  },
};

function servicePorts(o: Row): string {
  const ports = field(o, 'spec.ports');
  if (!Array.isArray(ports) || ports.length === 0) return '<none>';
  return ports.map((p) => {
    const { port, nodePort, protocol } = p as { port?: unknown; nodePort?: unknown; protocol?: string };
    return nodePort ? `${String(port)}:${String(nodePort)}/${protocol ?? 'TCP'}` : `${String(port)}/${protocol ?? 'TCP'}`;
  }).join(',');
}

/** getServiceExternalIP: the external IPs, a load balancer's ingress (`<pending>` until it has one), an ExternalName's name. */
function externalIp(o: Row): string {
  const external = (field(o, 'spec.externalIPs') as string[] | undefined) ?? [];
  switch (str(o, 'spec.type', 'ClusterIP')) {
    case 'ClusterIP':
    case 'NodePort':
      return external.length ? external.join(',') : '<none>';
    case 'LoadBalancer': {
      const ingress = ((field(o, 'status.loadBalancer.ingress') as { ip?: string; hostname?: string }[] | undefined) ?? []).map((i) => i.ip || i.hostname || '').filter(Boolean);
      const all = [...ingress, ...external];
      return all.length ? all.join(',') : '<pending>';
    }
    case 'ExternalName':
      return str(o, 'spec.externalName');
    default:
      return '<unknown>';
  }
}

export const serviceKind: KindModule = {
  api: { group: '', version: 'v1', resource: 'services', kind: 'Service', shortNames: ['svc'], categories: ['all'], status: true, nameRule: 'dns1035' },
  strategy: serviceStrategy,
  zeroStatus: () => ({ loadBalancer: {} }),
  columns: [
    NAME_COLUMN,
    col('Type', (o) => str(o, 'spec.type', 'ClusterIP')),
    col('Cluster-IP', (o) => str(o, 'spec.clusterIP', '<none>')),
    col('External-IP', externalIp),
    col('Port(s)', servicePorts),
    AGE_COLUMN,
    col('Selector', (o) => labelsText(field(o, 'spec.selector')), 'string', 1, 'Route service traffic to pods with label keys and values matching this selector. If empty or not present, the service is assumed to have an external process managing its endpoints, which Kubernetes will not modify. Only applies to types ClusterIP, NodePort, and LoadBalancer. Ignored if type is ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/'),
  ],
};
