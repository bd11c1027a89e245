import { isObj, items, obj, setDefault, type Obj } from './defaulting.ts';
import { defaultContainerNested, defaultVolume } from './podSpecNestedDefaults.ts';
import type { Cause } from '../../shared/apiErrors.ts';
import { validateLabels, validateLabelsAndAnnotations, validateName } from '../vocabulary/metadataValidation.ts';
import { duplicate, forbidden, invalid, isRecord, notSupported, records, required } from './fieldErrors.ts';

// A pod's spec, alone (Pods) or as the template of a workload: the defaults the API server fills
// in (SetDefaults_PodSpec, SetDefaults_Container) and the checks of ValidatePodSpec that a
// controller author meets (k8s.io/kubernetes/pkg/apis/core/validation), with their field paths
// and messages.

// ---- defaults ----

function imagePullPolicy(image: unknown): string {
  if (typeof image !== 'string') return 'IfNotPresent';
  const lastSegment = image.slice(image.lastIndexOf('/') + 1);
  if (image.includes('@')) return 'IfNotPresent';
  const tag = lastSegment.includes(':') ? lastSegment.slice(lastSegment.indexOf(':') + 1) : '';
  return tag === '' || tag === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultContainer(c: unknown): void {
  if (!isObj(c)) return;
  setDefault(c, 'imagePullPolicy', imagePullPolicy(c.image));
  setDefault(c, 'terminationMessagePath', '/dev/termination-log');
  setDefault(c, 'terminationMessagePolicy', 'File');
  setDefault(c, 'resources', {});
  if (Array.isArray(c.ports)) for (const p of c.ports) if (isObj(p)) setDefault(p, 'protocol', 'TCP');
  defaultContainerNested(c);
}

/** Every pod spec, a Job's too (which validation then tells to choose Never or OnFailure). */
export function defaultPodSpec(spec: Obj): void {
  setDefault(spec, 'restartPolicy', 'Always');
  setDefault(spec, 'dnsPolicy', 'ClusterFirst');
  setDefault(spec, 'schedulerName', 'default-scheduler');
  setDefault(spec, 'securityContext', {});
  setDefault(spec, 'terminationGracePeriodSeconds', 30);
  for (const list of ['containers', 'initContainers']) {
    const cs = spec[list];
    if (Array.isArray(cs)) cs.forEach(defaultContainer);
  }
  items(spec, 'volumes').forEach(defaultVolume);
}

/** Defaults the pod template at `parent.template` (a Go struct: defaulted even when the request left it out). */
export function defaultPodTemplate(parent: Obj): void {
  defaultPodSpec(obj(obj(parent, 'template'), 'spec'));
}

// ---- validation ----

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];

function validatePortNumber(field: string, port: unknown): Cause[] {
  return typeof port === 'number' && (port < 1 || port > 65535) ? [invalid(field, port, 'must be between 1 and 65535, inclusive')] : [];
}

function validateContainerPorts(ports: unknown, field: string): Cause[] {
  const causes: Cause[] = [];
  const names = new Set<string>();
  records(ports).forEach((p, i) => {
    const at = `${field}[${i}]`;
    if (typeof p.name === 'string' && p.name !== '') {
      if (names.has(p.name)) causes.push(duplicate(`${at}.name`, p.name));
      names.add(p.name);
    }
    if (!p.containerPort) causes.push(required(`${at}.containerPort`));
    else causes.push(...validatePortNumber(`${at}.containerPort`, p.containerPort));
    if (p.hostPort) causes.push(...validatePortNumber(`${at}.hostPort`, p.hostPort));
    if (!p.protocol) causes.push(required(`${at}.protocol`));
    else if (!PROTOCOLS.includes(String(p.protocol))) causes.push(notSupported(`${at}.protocol`, p.protocol, PROTOCOLS));
  });
  return causes;
}

function validateContainer(c: Record<string, unknown>, at: string, volumes: ReadonlySet<string>): Cause[] {
  const causes: Cause[] = [];
  if (!c.name) causes.push(required(`${at}.name`));
  else causes.push(...validateName(String(c.name), 'label', `${at}.name`));
  if (!c.image) causes.push(required(`${at}.image`));
  if (!c.terminationMessagePolicy) causes.push(required(`${at}.terminationMessagePolicy`));
  else if (!MESSAGE_POLICIES.includes(String(c.terminationMessagePolicy))) causes.push(notSupported(`${at}.terminationMessagePolicy`, c.terminationMessagePolicy, MESSAGE_POLICIES));
  causes.push(...validateContainerPorts(c.ports, `${at}.ports`));
  records(c.env).forEach((e, i) => {
    if (!e.name) causes.push(required(`${at}.env[${i}].name`));
  });
  records(c.volumeMounts).forEach((m, i) => {
    const mount = `${at}.volumeMounts[${i}]`;
    if (!m.name) causes.push(required(`${mount}.name`));
    else if (!volumes.has(String(m.name))) causes.push({ reason: 'FieldValueNotFound', field: `${mount}.name`, message: `Not found: ${JSON.stringify(m.name)}` });
    if (!m.mountPath) causes.push(required(`${mount}.mountPath`));
  });
  if (!c.imagePullPolicy) causes.push(required(`${at}.imagePullPolicy`));
  else if (!PULL_POLICIES.includes(String(c.imagePullPolicy))) causes.push(notSupported(`${at}.imagePullPolicy`, c.imagePullPolicy, PULL_POLICIES));
  return causes;
}

function validateVolumes(volumes: unknown, field: string): { causes: Cause[]; names: Set<string> } {
  const causes: Cause[] = [];
  const names = new Set<string>();
  records(volumes).forEach((v, i) => {
    const at = `${field}[${i}]`;
    if (!v.name) causes.push(required(`${at}.name`));
    else {
      causes.push(...validateName(String(v.name), 'label', `${at}.name`));
      if (names.has(String(v.name))) causes.push(duplicate(`${at}.name`, v.name));
      names.add(String(v.name));
    }
    const sources = Object.keys(v).filter((k) => k !== 'name' && v[k] !== null && v[k] !== undefined);
    if (sources.length === 0) causes.push(required(at, 'must specify a volume type'));
    else if (sources.length > 1) causes.push(forbidden(at, 'may not specify more than 1 volume type'));
  });
  return { causes, names };
}

/** ValidatePodSpec, for the checks a controller's objects usually meet. `field` is `spec` or `spec.template.spec`. */
export function validatePodSpec(spec: unknown, field: string): Cause[] {
  const s = isRecord(spec) ? spec : {};
  const { causes, names: volumes } = validateVolumes(s.volumes, `${field}.volumes`);
  const containers = records(s.containers);
  if (containers.length === 0) causes.push(required(`${field}.containers`));
  const containerNames = new Set<string>();
  containers.forEach((c, i) => {
    const at = `${field}.containers[${i}]`;
    causes.push(...validateContainer(c, at, volumes));
    if (c.name && containerNames.has(String(c.name))) causes.push(duplicate(`${at}.name`, c.name));
    containerNames.add(String(c.name ?? ''));
  });
  records(s.initContainers).forEach((c, i) => {
    const at = `${field}.initContainers[${i}]`;
    causes.push(...validateContainer(c, at, volumes));
    if (c.name && containerNames.has(String(c.name))) causes.push(duplicate(`${at}.name`, c.name));
    containerNames.add(String(c.name ?? ''));
  });
  causes.push(...oneOf(`${field}.restartPolicy`, s.restartPolicy, ['Always', 'OnFailure', 'Never']));
  causes.push(...oneOf(`${field}.dnsPolicy`, s.dnsPolicy, ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None']));
  causes.push(...validateLabels(s.nodeSelector, `${field}.nodeSelector`));
  if (typeof s.serviceAccountName === 'string' && s.serviceAccountName !== '') causes.push(...validateName(s.serviceAccountName, 'subdomain', `${field}.serviceAccountName`));
  if (typeof s.activeDeadlineSeconds === 'number' && (s.activeDeadlineSeconds < 1 || s.activeDeadlineSeconds > 2147483647)) {
    causes.push(invalid(`${field}.activeDeadlineSeconds`, s.activeDeadlineSeconds, 'must be between 1 and 2147483647, inclusive'));
  }
  return causes;
}

function oneOf(field: string, value: unknown, supported: readonly string[]): Cause[] {
  if (value === undefined || value === null || value === '') return [required(field)];
  return supported.includes(String(value)) ? [] : [notSupported(field, value, supported)];
}

/** ValidatePodTemplateSpec: the template's labels and annotations, then its pod spec. `field` is e.g. `spec.template`. */
export function validatePodTemplate(template: unknown, field: string): Cause[] {
  const t = isRecord(template) ? template : {};
  const meta = isRecord(t.metadata) ? t.metadata : {};
  const causes = validateLabelsAndAnnotations(meta.labels, meta.annotations, field);
  causes.push(...validatePodSpec(t.spec, `${field}.spec`));
  if (isRecord(t.spec) && Array.isArray(t.spec.ephemeralContainers) && t.spec.ephemeralContainers.length > 0) {
    causes.push(forbidden(`${field}.spec.ephemeralContainers`, 'ephemeral containers not allowed in pod template'));
  }
  return causes;
}

/** The template's labels (what a workload's selector must match). */
export function templateLabels(template: unknown): unknown {
  return isRecord(template) && isRecord(template.metadata) ? template.metadata.labels : undefined;
}
