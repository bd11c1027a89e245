// The TARGETS column of `kubectl get hpa` (printHorizontalPodAutoscaler, formatHPAMetrics) as of
// v1.28: `current/target` per metric, without the metric name later versions prefix (v1.30).
import { field, list, quantityText, type Obj } from '../vocabulary/tableCells.ts';

type Metric = Record<string, unknown>;

const UNKNOWN = '<unknown>';

/** A Quantity pointer's String(): `<nil>` when the field is absent. */
const quantity = (v: unknown): string => quantityText(v, '<nil>');

/** Value/averageValue metrics (External, Object): `current/target`, `(avg)` for averages. */
function valueTarget(spec: Metric, status: Metric | undefined): string {
  const target = field(spec, 'target');
  if (field(target, 'averageValue') !== undefined) {
    const current = field(status, 'current.averageValue');
    return `${current === undefined ? UNKNOWN : quantity(current)}/${quantity(field(target, 'averageValue'))} (avg)`;
  }
  return `${status ? quantity(field(status, 'current.value')) : UNKNOWN}/${quantity(field(target, 'value'))}`;
}

/** Resource and ContainerResource metrics: an average value, or a utilization percentage. */
function resourceTarget(spec: Metric, status: Metric | undefined): string {
  const target = field(spec, 'target');
  if (field(target, 'averageValue') !== undefined) {
    return `${status ? quantity(field(status, 'current.averageValue')) : UNKNOWN}/${quantity(field(target, 'averageValue'))}`;
  }
  const current = field(status, 'current.averageUtilization');
  const wanted = field(target, 'averageUtilization');
  return `${typeof current === 'number' ? `${current}%` : UNKNOWN}/${typeof wanted === 'number' ? `${wanted}%` : '<auto>'}`;
}

const SOURCE_FIELD: Record<string, string> = { External: 'external', Object: 'object', Pods: 'pods', Resource: 'resource', ContainerResource: 'containerResource' };

/** The TARGETS cell: the first two metrics, then how many more; `<none>` without metrics. */
export function hpaTargets(o: Obj): string {
  const specs = list(o, 'spec.metrics');
  if (specs.length === 0) return '<none>';
  const statuses = list(o, 'status.currentMetrics');
  const shown = specs.map((metric, i) => {
    const type = String(metric['type'] ?? '');
    const key = SOURCE_FIELD[type];
    if (!key) return '<unknown type>';
    const spec = (field(metric, key) ?? {}) as Metric;
    const status = field(statuses[i], key) as Metric | undefined;
    if (type === 'Pods') return `${status ? quantity(field(status, 'current.averageValue')) : UNKNOWN}/${quantity(field(spec, 'target.averageValue'))}`;
    return type === 'External' || type === 'Object' ? valueTarget(spec, status) : resourceTarget(spec, status);
  });
  return shown.length > 2 ? `${shown.slice(0, 2).join(', ')} + ${shown.length - 2} more...` : shown.join(', ');
}
