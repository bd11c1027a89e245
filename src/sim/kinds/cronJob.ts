import type { KubeObject } from '../../shared/k8s.ts';
import { obj, setDefault, type Obj } from './defaulting.ts';
import type { Cause } from '../../shared/apiErrors.ts';
import { invalid, isRecord, nonNegative, notSupported, required } from './fieldErrors.ts';
import { defaultPodTemplate } from './podSpec.ts';
import type { KindStrategy } from './kindStrategy.ts';
import type { KindModule } from './kindModule.ts';
import { AGE_COLUMN, col, containerCells, field, labelSelectorText, list, NAME_COLUMN, since, str, type Obj as Row } from '../vocabulary/tableCells.ts';
import { validateJobSpec } from './job.ts';
import { goLabelSelector } from './labelSelectorObject.ts';
import { specOf } from './workloadSpec.ts';

// CronJobs (batch/v1): SetDefaults_CronJob, and validateCronJobSpec — a schedule, a concurrency
// policy, a job template that is a valid Job but for the selector the Job will get generated, and
// names short enough for the Jobs made from them (52 characters).

const CRON_FIELD = /^(\*|\?|[0-9A-Za-z]+(-[0-9A-Za-z]+)?)(\/[0-9]+)?(,(\*|[0-9A-Za-z]+(-[0-9A-Za-z]+)?)(\/[0-9]+)?)*$/;
const DESCRIPTORS = ['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly'];

/** A standard 5-field schedule (or a descriptor), as robfig/cron's ParseStandard reads it. */
function scheduleProblem(schedule: string): string | undefined {
  let text = schedule.trim();
  if (/^(CRON_)?TZ=/.test(text)) text = text.slice(text.indexOf(' ') + 1).trim();
  if (text.startsWith('@')) return DESCRIPTORS.includes(text) || /^@every \S+$/.test(text) ? undefined : `unrecognized descriptor: ${text}`;
  const fields = text.split(/\s+/).filter(Boolean);
  if (fields.length !== 5) return `expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`;
  const bad = fields.find((f) => !CRON_FIELD.test(f));
  return bad === undefined ? undefined : `failed to parse int from ${bad}: strconv.Atoi: parsing ${JSON.stringify(bad)}: invalid syntax`;
}

const TIME_ZONE_PART = /^[A-Za-z.\-_0-9+]{1,14}$/;

/** validateTimeZone: an IANA name (as Go's time.LoadLocation finds it), never empty or "Local". */
function timeZoneProblem(zone: string): string | undefined {
  if (zone === '') return 'timeZone must be nil or non-empty string';
  if (zone.split('/').some((part) => part === '.' || part === '..' || part.startsWith('-') || !TIME_ZONE_PART.test(part))) return `unknown time zone ${zone}`;
  if (zone.toLowerCase() === 'local') return 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return undefined;
  } catch {
    return `unknown time zone ${zone}`;
  }
}

export const cronJobStrategy: KindStrategy = {
  defaults(o: KubeObject): void {
    const spec = obj(o as Obj, 'spec');
    setDefault(spec, 'concurrencyPolicy', 'Allow');
    setDefault(spec, 'suspend', false);
    setDefault(spec, 'successfulJobsHistoryLimit', 3);
    setDefault(spec, 'failedJobsHistoryLimit', 1);
    // The job template gets pod defaults only: Job-level ones (completions, backoffLimit…)
    // are the Job's own, filled when the CronJob controller creates it.
    defaultPodTemplate(obj(obj(spec, 'jobTemplate'), 'spec'));
  },

  validate(o: Readonly<KubeObject>): Cause[] {
    const spec = specOf(o);
    const causes: Cause[] = [];
    if (!spec.schedule) causes.push(required('spec.schedule'));
    else {
      const problem = scheduleProblem(String(spec.schedule));
      if (problem) causes.push(invalid('spec.schedule', spec.schedule, problem));
    }
    if (typeof spec.timeZone === 'string') {
      const problem = timeZoneProblem(spec.timeZone);
      if (problem) causes.push(invalid('spec.timeZone', spec.timeZone, problem));
    }
    causes.push(...nonNegative('spec.startingDeadlineSeconds', spec.startingDeadlineSeconds));
    const policy = spec.concurrencyPolicy ?? '';
    if (policy === '') causes.push(required('spec.concurrencyPolicy'));
    else if (!['Allow', 'Forbid', 'Replace'].includes(String(policy))) causes.push(notSupported('spec.concurrencyPolicy', policy, ['Allow', 'Forbid', 'Replace']));
    const template = isRecord(spec.jobTemplate) ? spec.jobTemplate : {};
    const jobSpec = isRecord(template.spec) ? template.spec : {};
    causes.push(...validateJobSpec(jobSpec, 'spec.jobTemplate.spec'));
    if (jobSpec.selector !== undefined && jobSpec.selector !== null) {
      causes.push({ reason: 'FieldValueInvalid', field: 'spec.jobTemplate.spec.selector', message: `Invalid value: ${goLabelSelector(jobSpec.selector)}: \`selector\` will be auto-generated` });
    }
    if (jobSpec.manualSelector === true) causes.push(notSupported('spec.jobTemplate.spec.manualSelector', true, ['nil', 'false']));
    causes.push(...nonNegative('spec.successfulJobsHistoryLimit', spec.successfulJobsHistoryLimit));
    causes.push(...nonNegative('spec.failedJobsHistoryLimit', spec.failedJobsHistoryLimit));
    return causes;
  },

  /** The 52-character limit holds on create only (old CronJobs with longer names stay updatable). */
  validateCreate(o: Readonly<KubeObject>): Cause[] {
    const name = o.metadata.name ?? '';
    return name.length > 52 ? [invalid('metadata.name', name, 'must be no more than 52 characters')] : [];
  },
};

/** printBoolPtr: True, False, or <unset> when the field is absent. */
function boolText(o: Row, path: string): string {
  const v = field(o, path);
  return typeof v === 'boolean' ? (v ? 'True' : 'False') : '<unset>';
}

export const cronJobKind: KindModule = {
  api: { group: 'batch', version: 'v1', resource: 'cronjobs', kind: 'CronJob', shortNames: ['cj'], categories: ['all'], status: true },
  strategy: cronJobStrategy,
  generation: true,
  zeroStatus: () => ({}),
  // v1.28 has no Timezone column yet (kubernetes#122231 added it in v1.30).
  columns: [
    NAME_COLUMN,
    col('Schedule', (o) => str(o, 'spec.schedule')),
    col('Suspend', (o) => boolText(o, 'spec.suspend'), 'boolean'),
    col('Active', (o) => list(o, 'status.active').length, 'integer'),
    col('Last Schedule', (o, now) => (field(o, 'status.lastScheduleTime') ? since(o, 'status.lastScheduleTime', now) : '<none>')),
    AGE_COLUMN,
    col('Containers', (o) => containerCells(field(o, 'spec.jobTemplate.spec.template.spec'), 'name'), 'string', 1),
    col('Images', (o) => containerCells(field(o, 'spec.jobTemplate.spec.template.spec'), 'image'), 'string', 1),
    col('Selector', (o) => labelSelectorText(field(o, 'spec.jobTemplate.spec.selector')), 'string', 1),
  ],
};
