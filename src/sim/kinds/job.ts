import type { KubeObject } from '../../shared/k8s.ts';
import { obj, setDefault, type Obj } from './defaulting.ts';
import type { Cause } from '../../shared/apiErrors.ts';
import { immutable, invalid, isRecord, nonNegative, notSupported, required } from './fieldErrors.ts';
import type { KindStrategy } from './kindStrategy.ts';
import type { KindModule } from './kindModule.ts';
import { AGE_COLUMN, col, field, humanDuration, NAME_COLUMN, num, str, type Obj as Row } from '../vocabulary/tableCells.ts';
import { WORKLOAD_WIDE } from './workloadColumns.ts';
import { immutableSelector, validateLabelSelector } from './labelSelectorObject.ts';
import { defaultPodTemplate, validatePodTemplate } from './podSpec.ts';
import { specOf, validateSelectorMatchesTemplate, type Spec } from './workloadSpec.ts';

// Jobs (batch/v1): SetDefaults_Job; the selector the API server generates from the Job's uid
// (unless spec.manualSelector) with the labels it puts on the template; validateJobSpec (pods that
// end: restartPolicy OnFailure or Never); and what never changes (selector, template,
// completionMode, completions of a non-indexed Job).

const UID_LABEL = 'batch.kubernetes.io/controller-uid';
const NAME_LABEL = 'batch.kubernetes.io/job-name';

/** Defaults of a Job's spec, also a CronJob's job template's (SetDefaults_Job). */
export function defaultJobSpec(spec: Obj): void {
  if (spec.parallelism === undefined && spec.completions === undefined) spec.completions = 1;
  setDefault(spec, 'parallelism', 1);
  setDefault(spec, 'backoffLimit', 6);
  setDefault(spec, 'completionMode', 'NonIndexed');
  setDefault(spec, 'suspend', false);
  defaultPodTemplate(spec);
}

/** validateJobSpec: `field` is `spec` (a Job) or `spec.jobTemplate.spec` (a CronJob's template). */
export function validateJobSpec(spec: Spec, field: string): Cause[] {
  const causes: Cause[] = [];
  for (const f of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished']) causes.push(...nonNegative(`${field}.${f}`, spec[f]));
  const mode = spec.completionMode;
  if (mode !== undefined && mode !== null && mode !== 'NonIndexed' && mode !== 'Indexed') causes.push(notSupported(`${field}.completionMode`, mode, ['NonIndexed', 'Indexed']));
  if (mode === 'Indexed' && (spec.completions === undefined || spec.completions === null)) causes.push(required(`${field}.completions`, 'when completion mode is Indexed'));
  causes.push(...validatePodTemplate(spec.template, `${field}.template`));
  const podSpec = isRecord(spec.template) && isRecord(spec.template.spec) ? spec.template.spec : {};
  const restart = podSpec.restartPolicy ?? '';
  const at = `${field}.template.spec.restartPolicy`;
  if (restart === 'Always' || restart === '') causes.push(required(at, 'valid values: "OnFailure", "Never"'));
  else if (restart !== 'OnFailure' && restart !== 'Never') causes.push(notSupported(at, restart, ['OnFailure', 'Never']));
  return causes;
}

/** SetDefaults_Job: a Job without labels of its own takes its template's (applied again as the server reads it back, so after the generated selector's labels). */
function labelsFromTemplate(o: KubeObject): void {
  const template = field(o, 'spec.template.metadata.labels');
  if (isRecord(template) && Object.keys(template).length > 0 && Object.keys(o.metadata.labels ?? {}).length === 0) o.metadata.labels = { ...(template as Record<string, string>) };
}

export const jobStrategy: KindStrategy = {
  defaults(o: KubeObject): void {
    defaultJobSpec(obj(o as Obj, 'spec'));
    labelsFromTemplate(o);
  },

  prepareForCreate(o: KubeObject): void {
    const spec = obj(o as Obj, 'spec');
    if (spec.manualSelector === true) return;
    const uid = o.metadata.uid ?? '';
    const name = o.metadata.name ?? '';
    spec.selector ??= { matchLabels: { [UID_LABEL]: uid } };
    const meta = obj(obj(spec, 'template'), 'metadata');
    meta.labels = { ...(isRecord(meta.labels) ? meta.labels : {}), 'controller-uid': uid, [UID_LABEL]: uid, 'job-name': name, [NAME_LABEL]: name };
    labelsFromTemplate(o);
  },

  validate(o: Readonly<KubeObject>): Cause[] {
    const spec = specOf(o);
    const causes = validateJobSpec(spec, 'spec');
    // Without a selector of its own, a Job gets one from its uid once created (prepareForCreate).
    if (spec.selector === undefined || spec.selector === null) {
      if (spec.manualSelector === true) causes.push(required('spec.selector'), ...validateSelectorMatchesTemplate(spec));
      return causes;
    }
    causes.push(...validateLabelSelector(spec.selector, 'spec.selector'));
    causes.push(...validateSelectorMatchesTemplate(spec));
    return causes;
  },

  validateUpdate(before: Readonly<KubeObject>, after: Readonly<KubeObject>): Cause[] {
    const a = specOf(after);
    const b = specOf(before);
    const causes: Cause[] = [];
    const indexed = a.completionMode === 'Indexed';
    if (!indexed) causes.push(...immutable('spec.completions', b.completions, a.completions));
    else if (a.completions !== b.completions && a.completions !== a.parallelism) causes.push(invalid('spec.completions', a.completions, 'can only be modified in tandem with spec.parallelism'));
    causes.push(...immutableSelector('spec.selector', b.selector, a.selector));
    const notStarted = !(isRecord(before.status) && before.status.startTime);
    causes.push(...immutableTemplate(b.template, a.template, b.suspend === true && notStarted));
    causes.push(...immutable('spec.completionMode', b.completionMode, a.completionMode));
    return causes;
  },
};

/** A Job's template is immutable, but for the scheduling directives, labels and annotations of a suspended Job that never started. */
function immutableTemplate(before: unknown, after: unknown, schedulingMutable: boolean): Cause[] {
  const strip = (t: unknown): unknown => {
    if (!isRecord(t) || !schedulingMutable) return t;
    const spec = isRecord(t.spec) ? { ...t.spec } : {};
    for (const f of ['nodeSelector', 'tolerations', 'schedulingGates', 'affinity']) delete spec[f];
    const meta = isRecord(t.metadata) ? { ...t.metadata } : {};
    delete meta.labels;
    delete meta.annotations;
    return { ...t, metadata: meta, spec };
  };
  return immutable('spec.template', strip(before), strip(after));
}

/** printJob's completions: succeeded of the completions asked, or of 1 (`0/1 of 3` with parallelism). */
function completions(o: Row): string {
  const succeeded = num(o, 'status.succeeded');
  const wanted = field(o, 'spec.completions');
  if (typeof wanted === 'number') return `${succeeded}/${wanted}`;
  const parallelism = num(o, 'spec.parallelism');
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

/** From its start to its completion, or to now while it runs; empty before it starts. */
function duration(o: Row, now: number): string {
  const start = Date.parse(str(o, 'status.startTime'));
  if (Number.isNaN(start)) return '';
  const end = Date.parse(str(o, 'status.completionTime'));
  return humanDuration((Number.isNaN(end) ? now : end) - start);
}

export const jobKind: KindModule = {
  api: { group: 'batch', version: 'v1', resource: 'jobs', kind: 'Job', categories: ['all'], status: true },
  strategy: jobStrategy,
  generation: true,
  zeroStatus: () => ({}),
  columns: [NAME_COLUMN, col('Completions', completions), col('Duration', duration, 'string', 0, 'Time required to complete the job.'), AGE_COLUMN, ...WORKLOAD_WIDE],
};
