import type { KubeObject } from '../../shared/k8s.ts';
import type { Cause } from '../../shared/apiErrors.ts';
import { validateName } from '../vocabulary/metadataValidation.ts';
import { forbidden, invalid, isRecord, notSupported, records, required } from './fieldErrors.ts';

// ValidateHorizontalPodAutoscaler (autoscaling/v2, as v1.28 checks it without the alpha
// scale-to-zero gate): replicas bounds, a target to scale, metrics that say what they measure,
// and scaling behavior within the server's limits.

type Json = Record<string, unknown>;

const METRIC_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
const SOURCE_FIELDS: Record<string, string> = { Object: 'object', Pods: 'pods', Resource: 'resource', External: 'external', ContainerResource: 'containerResource' };
const SELECT_POLICIES = ['Disabled', 'Max', 'Min'];
const POLICY_TYPES = ['Percent', 'Pods'];
const MAX_PERIOD_SECONDS = 1800;
const MAX_STABILIZATION_SECONDS = 3600;

const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

function validateTargetRef(ref: Json, at: string): Cause[] {
  const causes: Cause[] = [];
  for (const key of ['kind', 'name']) {
    const v = typeof ref[key] === 'string' ? (ref[key] as string) : '';
    if (v === '') causes.push(required(`${at}.${key}`));
    else causes.push(...validateName(v, 'pathSegment', `${at}.${key}`));
  }
  return causes;
}

function validateTarget(target: Json, at: string): Cause[] {
  const causes: Cause[] = [];
  const type = String(target.type ?? '');
  if (type === '') causes.push(required(`${at}.type`, 'must specify a metric target type'));
  if (!['Utilization', 'Value', 'AverageValue'].includes(type)) causes.push(invalid(`${at}.type`, type, 'must be either Utilization, Value, or AverageValue'));
  const utilization = num(target.averageUtilization);
  if (utilization !== undefined && utilization < 1) causes.push(invalid(`${at}.averageUtilization`, utilization, 'must be greater than 0'));
  return causes;
}

/** Resource and ContainerResource sources: a resource name and a utilization or an average value. */
function validateResourceSource(src: Json, at: string, container: boolean): Cause[] {
  const causes: Cause[] = [];
  if (!src.name) causes.push(required(`${at}.name`, 'must specify a resource name'));
  if (container && !src.container) causes.push(required(`${at}.container`, 'must specify a container'));
  const target = isRecord(src.target) ? src.target : {};
  causes.push(...validateTarget(target, `${at}.target`));
  const hasUtilization = target.averageUtilization !== undefined && target.averageUtilization !== null;
  const hasValue = target.averageValue !== undefined && target.averageValue !== null;
  if (!hasUtilization && !hasValue) causes.push(required(`${at}.target.averageUtilization`, 'must set either a target raw value or a target utilization'));
  if (hasUtilization && hasValue) causes.push(forbidden(`${at}.target.averageValue`, 'may not set both a target raw value and a target utilization'));
  return causes;
}

function validateMetric(metric: Json, at: string): Cause[] {
  const causes: Cause[] = [];
  const type = String(metric.type ?? '');
  if (type === '') causes.push(required(`${at}.type`, 'must specify a metric source type'));
  if (!METRIC_TYPES.includes(type)) causes.push(notSupported(`${at}.type`, type, METRIC_TYPES));
  const present = Object.values(SOURCE_FIELDS).filter((f) => isRecord(metric[f]));
  const first = present[0];
  if (first === 'resource' || first === 'containerResource') causes.push(...validateResourceSource(metric[first] as Json, `${at}.${first}`, first === 'containerResource'));
  const expected = SOURCE_FIELDS[type];
  if (expected && !isRecord(metric[expected])) causes.push(required(`${at}.${expected}`, 'must populate information for the given metric source'));
  if (present.length > 1) for (const f of present) if (f !== expected) causes.push(forbidden(`${at}.${f}`, 'must populate the given metric source only'));
  return causes;
}

function validateRules(rules: unknown, at: string): Cause[] {
  if (!isRecord(rules)) return [];
  const causes: Cause[] = [];
  const window = num(rules.stabilizationWindowSeconds);
  if (window !== undefined && window < 0) causes.push(invalid(`${at}.stabilizationWindowSeconds`, window, 'must be greater than or equal to zero'));
  if (window !== undefined && window > MAX_STABILIZATION_SECONDS) causes.push(invalid(`${at}.stabilizationWindowSeconds`, window, `must be less than or equal to ${MAX_STABILIZATION_SECONDS}`));
  if (rules.selectPolicy !== undefined && rules.selectPolicy !== null && !SELECT_POLICIES.includes(String(rules.selectPolicy))) causes.push(notSupported(`${at}.selectPolicy`, rules.selectPolicy, SELECT_POLICIES));
  const policies = records(rules.policies);
  if (policies.length === 0) causes.push(required(`${at}.policies`, 'must specify at least one Policy'));
  policies.forEach((p, i) => {
    const pat = `${at}.policies[${i}]`;
    if (!POLICY_TYPES.includes(String(p.type ?? ''))) causes.push(notSupported(`${pat}.type`, p.type ?? '', POLICY_TYPES));
    const value = num(p.value) ?? 0;
    if (value <= 0) causes.push(invalid(`${pat}.value`, value, 'must be greater than zero'));
    const period = num(p.periodSeconds) ?? 0;
    if (period <= 0) causes.push(invalid(`${pat}.periodSeconds`, period, 'must be greater than zero'));
    if (period > MAX_PERIOD_SECONDS) causes.push(invalid(`${pat}.periodSeconds`, period, `must be less than or equal to ${MAX_PERIOD_SECONDS}`));
  });
  return causes;
}

export function validateHorizontalPodAutoscaler(o: Readonly<KubeObject>): Cause[] {
  const spec = isRecord(o.spec) ? o.spec : {};
  const causes: Cause[] = [];
  const min = num(spec.minReplicas);
  const max = num(spec.maxReplicas) ?? 0;
  if (min !== undefined && min < 1) causes.push(invalid('spec.minReplicas', min, 'must be greater than or equal to 1'));
  if (max < 1) causes.push(invalid('spec.maxReplicas', max, 'must be greater than 0'));
  if (min !== undefined && max < min) causes.push(invalid('spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`'));
  causes.push(...validateTargetRef(isRecord(spec.scaleTargetRef) ? spec.scaleTargetRef : {}, 'spec.scaleTargetRef'));
  const metrics = records(spec.metrics);
  metrics.forEach((m, i) => causes.push(...validateMetric(m, `spec.metrics[${i}]`)));
  // Scaling to zero needs a metric that does not come from the (then absent) pods.
  if (min === 0 && !metrics.some((m) => m.type === 'Object' || m.type === 'External')) {
    causes.push({ reason: 'FieldValueForbidden', field: 'spec.metrics', message: 'Forbidden: must specify at least one Object or External metric to support scaling to zero replicas' });
  }
  const behavior = isRecord(spec.behavior) ? spec.behavior : {};
  causes.push(...validateRules(behavior.scaleUp, 'spec.behavior.scaleUp'), ...validateRules(behavior.scaleDown, 'spec.behavior.scaleDown'));
  return causes;
}
