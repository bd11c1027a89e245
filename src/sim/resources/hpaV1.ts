import type { KubeObject } from '../../shared/k8s.ts';
import { badRequest } from '../../shared/apiErrors.ts';
import type { ConvertedVersion } from './convertedVersion.ts';

// autoscaling/v1 HorizontalPodAutoscalers are a view of the stored autoscaling/v2 ones, converted as
// kube-apiserver converts them (pkg/apis/autoscaling/v1/conversion.go): the first CPU utilization
// target is targetCPUUtilizationPercentage, and what v1 has no field for travels in annotations — the
// other metrics and the current ones in v1's older metric shapes, the conditions, and the behavior
// with Go's field names (upstream marshals its internal type there) — so a v1 client that writes the
// object back loses none of it. Quirks kept: metrics from the annotation come before the CPU one,
// and v1 quantities that are not pointers come back as "0".

type Obj = Record<string, unknown>;

const METRICS = 'autoscaling.alpha.kubernetes.io/metrics';
const CURRENT_METRICS = 'autoscaling.alpha.kubernetes.io/current-metrics';
const CONDITIONS = 'autoscaling.alpha.kubernetes.io/conditions';
const BEHAVIOR = 'autoscaling.alpha.kubernetes.io/behavior';
const ROUND_TRIP = [METRICS, CURRENT_METRICS, CONDITIONS, BEHAVIOR];
/** What autoscaling/v1 always meant when no target was given. */
const DEFAULT_CPU_UTILIZATION = 80;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const objAt = (o: unknown, key: string): Obj => (isObj(o) && isObj(o[key]) ? o[key] : {});
const listAt = (o: unknown, key: string): Obj[] => (isObj(o) && Array.isArray(o[key]) ? (o[key] as unknown[]).filter(isObj) : []);

/** Copies the keys whose values are set, in the order given (Go's field order, omitempty). */
function defined(entries: [string, unknown][]): Obj {
  const out: Obj = {};
  for (const [k, v] of entries) if (v !== undefined && v !== null) out[k] = v;
  return out;
}

const ZERO_QUANTITY = '0';

// ---- metric shapes: v2 (stored) to v1 (annotations) ----

function describedToTarget(ref: unknown): Obj {
  const r = isObj(ref) ? ref : {};
  return defined([['kind', r.kind ?? ''], ['name', r.name ?? ''], ['apiVersion', r.apiVersion || undefined]]);
}

function metricSpecToV1(m: Obj): Obj {
  const out: Obj = { type: m.type };
  const target = (source: unknown): Obj => objAt(source, 'target');
  const metric = (source: unknown): Obj => objAt(source, 'metric');
  if (isObj(m.object)) {
    out.object = defined([
      ['target', describedToTarget(m.object.describedObject)], ['metricName', metric(m.object).name ?? ''],
      ['targetValue', target(m.object).value ?? ZERO_QUANTITY], ['selector', metric(m.object).selector], ['averageValue', target(m.object).averageValue],
    ]);
  }
  if (isObj(m.pods)) {
    out.pods = defined([['metricName', metric(m.pods).name ?? ''], ['targetAverageValue', target(m.pods).averageValue ?? ZERO_QUANTITY], ['selector', metric(m.pods).selector]]);
  }
  if (isObj(m.resource)) {
    out.resource = defined([['name', m.resource.name ?? ''], ['targetAverageUtilization', target(m.resource).averageUtilization], ['targetAverageValue', target(m.resource).averageValue]]);
  }
  if (isObj(m.containerResource)) {
    const c = m.containerResource;
    out.containerResource = defined([['name', c.name ?? ''], ['targetAverageUtilization', target(c).averageUtilization], ['targetAverageValue', target(c).averageValue], ['container', c.container ?? '']]);
  }
  if (isObj(m.external)) {
    out.external = defined([['metricName', metric(m.external).name ?? ''], ['metricSelector', metric(m.external).selector], ['targetValue', target(m.external).value], ['targetAverageValue', target(m.external).averageValue]]);
  }
  return out;
}

function metricStatusToV1(m: Obj): Obj {
  const out: Obj = { type: m.type };
  const current = (source: unknown): Obj => objAt(source, 'current');
  const metric = (source: unknown): Obj => objAt(source, 'metric');
  if (isObj(m.object)) {
    out.object = defined([
      ['target', describedToTarget(m.object.describedObject)], ['metricName', metric(m.object).name ?? ''],
      ['currentValue', current(m.object).value ?? ZERO_QUANTITY], ['selector', metric(m.object).selector], ['averageValue', current(m.object).averageValue],
    ]);
  }
  if (isObj(m.pods)) {
    out.pods = defined([['metricName', metric(m.pods).name ?? ''], ['currentAverageValue', current(m.pods).averageValue ?? ZERO_QUANTITY], ['selector', metric(m.pods).selector]]);
  }
  if (isObj(m.resource)) {
    out.resource = defined([['name', m.resource.name ?? ''], ['currentAverageUtilization', current(m.resource).averageUtilization], ['currentAverageValue', current(m.resource).averageValue ?? ZERO_QUANTITY]]);
  }
  if (isObj(m.containerResource)) {
    const c = m.containerResource;
    out.containerResource = defined([['name', c.name ?? ''], ['currentAverageUtilization', current(c).averageUtilization], ['currentAverageValue', current(c).averageValue ?? ZERO_QUANTITY], ['container', c.container ?? '']]);
  }
  if (isObj(m.external)) {
    out.external = defined([['metricName', metric(m.external).name ?? ''], ['metricSelector', metric(m.external).selector], ['currentValue', current(m.external).value ?? ZERO_QUANTITY], ['currentAverageValue', current(m.external).averageValue]]);
  }
  return out;
}

// ---- metric shapes: v1 (annotations) to v2 (stored) ----

function targetToDescribed(ref: unknown): Obj {
  return describedToTarget(ref);
}

function identifier(name: unknown, selector: unknown): Obj {
  return defined([['name', name ?? ''], ['selector', selector]]);
}

function metricSpecFromV1(m: Obj): Obj {
  const out: Obj = { type: m.type };
  if (isObj(m.object)) {
    const o = m.object;
    out.object = {
      describedObject: targetToDescribed(o.target),
      target: defined([['type', o.averageValue == null ? 'Value' : 'AverageValue'], ['value', o.targetValue ?? ZERO_QUANTITY], ['averageValue', o.averageValue]]),
      metric: identifier(o.metricName, o.selector),
    };
  }
  if (isObj(m.pods)) {
    out.pods = { metric: identifier(m.pods.metricName, m.pods.selector), target: { type: 'AverageValue', averageValue: m.pods.targetAverageValue ?? ZERO_QUANTITY } };
  }
  if (isObj(m.resource)) {
    const r = m.resource;
    out.resource = { name: r.name ?? '', target: defined([['type', r.targetAverageUtilization == null ? 'AverageValue' : 'Utilization'], ['averageUtilization', r.targetAverageUtilization], ['averageValue', r.targetAverageValue]]) };
  }
  if (isObj(m.containerResource)) {
    const c = m.containerResource;
    out.containerResource = {
      name: c.name ?? '',
      target: defined([['type', c.targetAverageUtilization == null ? 'AverageValue' : 'Utilization'], ['averageUtilization', c.targetAverageUtilization], ['averageValue', c.targetAverageValue]]),
      container: c.container ?? '',
    };
  }
  if (isObj(m.external)) {
    const e = m.external;
    out.external = { metric: identifier(e.metricName, e.metricSelector), target: defined([['type', e.targetValue == null ? 'AverageValue' : 'Value'], ['value', e.targetValue], ['averageValue', e.targetAverageValue]]) };
  }
  return out;
}

function metricStatusFromV1(m: Obj): Obj {
  const out: Obj = { type: m.type };
  if (isObj(m.object)) {
    const o = m.object;
    out.object = { metric: identifier(o.metricName, o.selector), current: defined([['value', o.currentValue ?? ZERO_QUANTITY], ['averageValue', o.averageValue]]), describedObject: targetToDescribed(o.target) };
  }
  if (isObj(m.pods)) out.pods = { metric: identifier(m.pods.metricName, m.pods.selector), current: { averageValue: m.pods.currentAverageValue ?? ZERO_QUANTITY } };
  if (isObj(m.resource)) {
    const r = m.resource;
    out.resource = { name: r.name ?? '', current: defined([['averageValue', r.currentAverageValue ?? ZERO_QUANTITY], ['averageUtilization', r.currentAverageUtilization]]) };
  }
  if (isObj(m.containerResource)) {
    const c = m.containerResource;
    out.containerResource = { name: c.name ?? '', current: defined([['averageValue', c.currentAverageValue ?? ZERO_QUANTITY], ['averageUtilization', c.currentAverageUtilization]]), container: c.container ?? '' };
  }
  if (isObj(m.external)) {
    const e = m.external;
    out.external = { metric: identifier(e.metricName, e.metricSelector), current: defined([['value', e.currentValue ?? ZERO_QUANTITY], ['averageValue', e.currentAverageValue]]) };
  }
  return out;
}

// ---- behavior: Go field names in the annotation ----

function rulesToGo(rules: unknown): Obj | null {
  if (!isObj(rules)) return null;
  const go: Obj = {
    StabilizationWindowSeconds: rules.stabilizationWindowSeconds ?? null,
    SelectPolicy: rules.selectPolicy ?? null,
    Policies: Array.isArray(rules.policies) ? rules.policies.filter(isObj).map((p) => ({ Type: p.type ?? '', Value: p.value ?? 0, PeriodSeconds: p.periodSeconds ?? 0 })) : null,
  };
  if (rules.tolerance !== undefined) go.Tolerance = rules.tolerance;
  return go;
}

/** encoding/json matches field names without regard to case. */
function goField(o: Obj, name: string): unknown {
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(o)) if (k.toLowerCase() === lower) return v;
  return undefined;
}

function rulesFromGo(go: unknown): Obj | undefined {
  if (!isObj(go)) return undefined;
  const policies = goField(go, 'Policies');
  return defined([
    ['selectPolicy', goField(go, 'SelectPolicy')],
    ['policies', Array.isArray(policies) ? policies.filter(isObj).map((p) => ({ type: goField(p, 'Type') ?? '', value: goField(p, 'Value') ?? 0, periodSeconds: goField(p, 'PeriodSeconds') ?? 0 })) : undefined],
    ['stabilizationWindowSeconds', goField(go, 'StabilizationWindowSeconds')],
    ['tolerance', goField(go, 'Tolerance')],
  ]);
}

// ---- the objects ----

function firstCpu(metrics: Obj[]): Obj | undefined {
  return metrics.find((m) => m.type === 'Resource' && isObj(m.resource) && m.resource.name === 'cpu');
}

function withoutRoundTripAnnotations(metadata: Obj): { metadata: Obj; annotations: Record<string, string> } {
  const annotations: Record<string, string> = { ...(isObj(metadata.annotations) ? (metadata.annotations as Record<string, string>) : {}) };
  for (const key of ROUND_TRIP) delete annotations[key];
  return { metadata: { ...metadata }, annotations };
}

/** A stored autoscaling/v2 HorizontalPodAutoscaler as autoscaling/v1 shows it. */
export function hpaV2ToV1(stored: Readonly<KubeObject>): KubeObject {
  const spec = objAt(stored, 'spec');
  const status = objAt(stored, 'status');
  const metrics = listAt(spec, 'metrics');
  const currentMetrics = listAt(status, 'currentMetrics');
  const conditions = listAt(status, 'conditions');
  const { metadata, annotations } = withoutRoundTripAnnotations(stored.metadata as Obj);

  const cpu = firstCpu(metrics);
  const others = metrics.filter((m) => !(m.type === 'Resource' && isObj(m.resource) && m.resource.name === 'cpu' && objAt(m.resource, 'target').averageUtilization != null));
  let currentCpu: unknown;
  for (const m of currentMetrics) {
    if (m.type === 'Resource' && isObj(m.resource) && m.resource.name === 'cpu' && objAt(m.resource, 'current').averageUtilization != null) currentCpu = objAt(m.resource, 'current').averageUtilization;
  }

  if (others.length > 0) annotations[METRICS] = JSON.stringify(others.map(metricSpecToV1));
  if (currentMetrics.length > 0) annotations[CURRENT_METRICS] = JSON.stringify(currentMetrics.map(metricStatusToV1));
  if (conditions.length > 0) {
    // A zero metav1.Time marshals as null; reason and message are omitempty.
    const v1Conditions = conditions.map((c) => ({ type: c.type ?? '', status: c.status ?? '', lastTransitionTime: c.lastTransitionTime ?? null, ...defined([['reason', c.reason || undefined], ['message', c.message || undefined]]) }));
    annotations[CONDITIONS] = JSON.stringify(v1Conditions);
  }
  if (isObj(spec.behavior)) annotations[BEHAVIOR] = JSON.stringify({ ScaleUp: rulesToGo(spec.behavior.scaleUp), ScaleDown: rulesToGo(spec.behavior.scaleDown) });
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
  else delete metadata.annotations;

  return {
    apiVersion: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    metadata: metadata as KubeObject['metadata'],
    spec: defined([
      ['scaleTargetRef', describedToTarget(spec.scaleTargetRef)],
      ['minReplicas', spec.minReplicas],
      ['maxReplicas', spec.maxReplicas ?? 0],
      ['targetCPUUtilizationPercentage', cpu ? objAt(cpu.resource, 'target').averageUtilization : undefined],
    ]),
    status: defined([
      ['observedGeneration', status.observedGeneration],
      ['lastScaleTime', status.lastScaleTime],
      ['currentReplicas', status.currentReplicas ?? 0],
      ['desiredReplicas', status.desiredReplicas ?? 0],
      ['currentCPUUtilizationPercentage', currentCpu],
    ]),
  };
}

function annotationList(annotations: Record<string, string>, key: string): Obj[] | undefined {
  const text = annotations[key];
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw badRequest(`the ${key} annotation is not valid JSON: ${(err as Error).message}`);
  }
  if (parsed === null) return [];
  if (!Array.isArray(parsed)) throw badRequest(`the ${key} annotation must be a JSON list`);
  return parsed.filter(isObj);
}

function behaviorOf(annotations: Record<string, string>): Obj | undefined {
  const text = annotations[BEHAVIOR];
  if (text === undefined) return undefined;
  try {
    // As upstream: only well-formed, non-empty behavior moves from the annotation to the field.
    const go: unknown = JSON.parse(text);
    if (!isObj(go)) return undefined;
    const behavior = defined([['scaleUp', rulesFromGo(goField(go, 'ScaleUp'))], ['scaleDown', rulesFromGo(goField(go, 'ScaleDown'))]]);
    return Object.keys(behavior).length > 0 ? behavior : undefined;
  } catch {
    return undefined;
  }
}

/** An autoscaling/v1 HorizontalPodAutoscaler as the autoscaling/v2 one it is stored as. */
export function hpaV1ToV2(served: Readonly<KubeObject>): KubeObject {
  const spec = objAt(served, 'spec');
  const status = objAt(served, 'status');
  const given = isObj(served.metadata?.annotations) ? (served.metadata.annotations as Record<string, string>) : {};
  const { metadata, annotations } = withoutRoundTripAnnotations((served.metadata ?? {}) as Obj);

  const cpuTarget = spec.targetCPUUtilizationPercentage;
  const cpuMetric = (utilization: unknown): Obj => ({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: utilization } } });
  let metrics: Obj[] = cpuTarget == null ? [] : [cpuMetric(cpuTarget)];
  const others = annotationList(given, METRICS);
  if (others) metrics = [...others.map(metricSpecFromV1), ...metrics];
  if (metrics.length === 0) metrics = [cpuMetric(DEFAULT_CPU_UTILIZATION)];

  let currentMetrics: Obj[] | undefined = status.currentCPUUtilizationPercentage == null
    ? undefined
    : [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: status.currentCPUUtilizationPercentage } } }];
  const current = annotationList(given, CURRENT_METRICS);
  if (current) currentMetrics = current.map(metricStatusFromV1);
  const conditions = annotationList(given, CONDITIONS)?.map((c) => defined([['type', c.type], ['status', c.status], ['lastTransitionTime', c.lastTransitionTime], ['reason', c.reason], ['message', c.message]]));

  if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
  else delete metadata.annotations;
  const out: KubeObject = {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: metadata as KubeObject['metadata'],
    spec: defined([
      ['scaleTargetRef', describedToTarget(spec.scaleTargetRef)],
      ['minReplicas', spec.minReplicas],
      ['maxReplicas', spec.maxReplicas ?? 0],
      ['metrics', metrics],
      ['behavior', behaviorOf(given)],
    ]),
  };
  if (isObj(served.status)) {
    out.status = defined([
      ['observedGeneration', status.observedGeneration],
      ['lastScaleTime', status.lastScaleTime],
      ['currentReplicas', status.currentReplicas],
      ['desiredReplicas', status.desiredReplicas ?? 0],
      ['currentMetrics', currentMetrics],
      ['conditions', conditions],
    ]);
  }
  return out;
}

export const hpaV1Version: ConvertedVersion = {
  stored: { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' },
  type: { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler' },
  toServed: hpaV2ToV1,
  toStored: hpaV1ToV2,
  status: true,
};
