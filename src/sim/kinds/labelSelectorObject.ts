import type { Cause } from '../../shared/apiErrors.ts';
import { validateLabels } from '../vocabulary/metadataValidation.ts';
import { forbidden, invalid, isRecord, records, required, sameValue } from './fieldErrors.ts';

// A metav1.LabelSelector ({matchLabels, matchExpressions}) in a spec: validated as
// ValidateLabelSelector does, and matched against a pod template's labels.

interface Expression { key?: unknown; operator?: unknown; values?: unknown }

export function validateLabelSelector(selector: unknown, field: string): Cause[] {
  if (!isRecord(selector)) return [];
  const causes = validateLabels(selector.matchLabels, `${field}.matchLabels`);
  records(selector.matchExpressions).forEach((e: Expression, i) => {
    const at = `${field}.matchExpressions[${i}]`;
    const values = Array.isArray(e.values) ? e.values : [];
    switch (e.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) causes.push(required(`${at}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) causes.push(forbidden(`${at}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        break;
      default:
        causes.push(invalid(`${at}.operator`, e.operator ?? '', 'not a valid selector operator'));
    }
    causes.push(...validateLabels({ [String(e.key ?? '')]: '' }, `${at}.key`));
  });
  return causes;
}

/** True when the selector has no requirement at all (which workloads refuse: it would select every pod). */
export function selectorIsEmpty(selector: unknown): boolean {
  if (!isRecord(selector)) return true;
  const labels = isRecord(selector.matchLabels) ? Object.keys(selector.matchLabels).length : 0;
  const expressions = Array.isArray(selector.matchExpressions) ? selector.matchExpressions.length : 0;
  return labels + expressions === 0;
}

export function selectorMatches(selector: unknown, labels: unknown): boolean {
  if (!isRecord(selector)) return true;
  const have = (isRecord(labels) ? labels : {}) as Record<string, unknown>;
  const matchLabels = isRecord(selector.matchLabels) ? selector.matchLabels : {};
  for (const [k, v] of Object.entries(matchLabels)) if (have[k] !== v) return false;
  for (const e of records(selector.matchExpressions) as Expression[]) {
    const key = String(e.key ?? '');
    const values = Array.isArray(e.values) ? e.values : [];
    const present = Object.hasOwn(have, key);
    if (e.operator === 'In' && !(present && values.includes(have[key]))) return false;
    if (e.operator === 'NotIn' && present && values.includes(have[key])) return false;
    if (e.operator === 'Exists' && !present) return false;
    if (e.operator === 'DoesNotExist' && present) return false;
  }
  return true;
}

const goStrings = (v: unknown): string => (Array.isArray(v) && v.length ? `[]string{${v.map((s) => JSON.stringify(String(s))).join(', ')}}` : '[]string(nil)');

/** A selector as Go's %#v prints a v1.LabelSelector in a field error (`null` for none). */
export function goLabelSelector(selector: unknown): string {
  if (!isRecord(selector)) return 'null';
  const labels = isRecord(selector.matchLabels) && Object.keys(selector.matchLabels).length
    ? `map[string]string{${Object.entries(selector.matchLabels).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(String(v))}`).join(', ')}}`
    : 'map[string]string(nil)';
  const exprs = records(selector.matchExpressions) as Expression[];
  const expressions = exprs.length
    ? `[]v1.LabelSelectorRequirement{${exprs.map((e) => `v1.LabelSelectorRequirement{Key:${JSON.stringify(String(e.key ?? ''))}, Operator:${JSON.stringify(String(e.operator ?? ''))}, Values:${goStrings(e.values)}}`).join(', ')}}`
    : '[]v1.LabelSelectorRequirement(nil)';
  return `v1.LabelSelector{MatchLabels:${labels}, MatchExpressions:${expressions}}`;
}

/** A cause about a whole selector (`Invalid value: v1.LabelSelector{…}: why`). */
export function invalidSelector(field: string, selector: unknown, why: string): Cause {
  return { reason: 'FieldValueInvalid', field, message: `Invalid value: ${goLabelSelector(selector)}: ${why}` };
}

/** ValidateImmutableField for a selector. */
export function immutableSelector(field: string, before: unknown, after: unknown): Cause[] {
  return sameValue(before, after) ? [] : [invalidSelector(field, after, 'field is immutable')];
}
