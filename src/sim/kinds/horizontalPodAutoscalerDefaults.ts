import { isObj, obj, setDefault, type Obj } from './defaulting.ts';

// HorizontalPodAutoscaler (autoscaling/v2) defaults: at least one replica, CPU at 80% when no
// metric is given, and — only when `behavior` is set — every scaling rule it leaves out, as
// autoscaling/v2 SetDefaults_HorizontalPodAutoscaler[Behavior] fills them.

const DEFAULT_CPU_METRIC = { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } };

const SCALE_UP_RULES = {
  stabilizationWindowSeconds: 0,
  selectPolicy: 'Max',
  policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }],
};

// No stabilizationWindowSeconds: the controller's --horizontal-pod-autoscaler-downscale-stabilization applies.
const SCALE_DOWN_RULES = {
  selectPolicy: 'Max',
  policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
};

/** The given rules with each missing part taken from the defaults (copyHPAScalingRules). */
function scalingRules(given: unknown, defaults: Obj): Obj {
  const rules: Obj = isObj(given) ? given : {};
  for (const [key, value] of Object.entries(defaults)) setDefault(rules, key, structuredClone(value));
  return rules;
}

export function horizontalPodAutoscalerDefaults(o: Obj): void {
  const spec = obj(o, 'spec');
  setDefault(spec, 'minReplicas', 1);
  if (!Array.isArray(spec.metrics) || spec.metrics.length === 0) spec.metrics = [structuredClone(DEFAULT_CPU_METRIC)];
  const behavior = spec.behavior;
  if (isObj(behavior)) {
    behavior.scaleUp = scalingRules(behavior.scaleUp, SCALE_UP_RULES);
    behavior.scaleDown = scalingRules(behavior.scaleDown, SCALE_DOWN_RULES);
  }
}
