// A request's options (ListOptions; CreateOptions, UpdateOptions, PatchOptions, DeleteOptions),
// validated as apimachinery's meta validation does: every problem a cause of one 422 Invalid naming
// the options' kind, the way clients see them from kube-apiserver.
import { invalid, type Cause } from '../../shared/apiErrors.ts';

export type WriteOptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions' | 'DeleteOptions';

const FIELD_MANAGER_MAX_LENGTH = 128;

/** Go's %#v of a []string: `[]string{"a", "b"}`. */
export function goStringSlice(values: readonly string[]): string {
  return `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`;
}

// unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
const NOT_PRINTABLE = /[\p{C}\p{Z}]/u;

export function fieldManagerCauses(fieldManager: string | undefined): Cause[] {
  if (fieldManager === undefined) return [];
  const causes: Cause[] = [];
  if (Buffer.byteLength(fieldManager) > FIELD_MANAGER_MAX_LENGTH) {
    causes.push({ reason: 'FieldValueTooLong', field: 'fieldManager', message: `Too long: must have at most ${FIELD_MANAGER_MAX_LENGTH} bytes` });
  }
  let at = 0;
  for (const ch of fieldManager) {
    if (ch !== ' ' && NOT_PRINTABLE.test(ch)) {
      const code = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
      causes.push({ reason: 'FieldValueInvalid', field: 'fieldManager', message: `Invalid value: ${JSON.stringify(fieldManager)}: invalid character U+${code} (at position ${at})` });
    }
    at += Buffer.byteLength(ch);
  }
  return causes;
}

export function dryRunCauses(dryRun: readonly string[]): Cause[] {
  if (dryRun.every((d) => d === 'All')) return [];
  return [{ reason: 'FieldValueNotSupported', field: 'dryRun', message: `Unsupported value: ${goStringSlice(dryRun)}: supported values: "All"` }];
}

export function fieldValidationCauses(fieldValidation: string | undefined): Cause[] {
  if (fieldValidation === undefined || ['', 'Ignore', 'Strict', 'Warn'].includes(fieldValidation)) return [];
  return [{ reason: 'FieldValueNotSupported', field: 'fieldValidation', message: `Unsupported value: ${JSON.stringify(fieldValidation)}: supported values: "", "Ignore", "Strict", "Warn"` }];
}

export function throwIfInvalid(kind: WriteOptionsKind | 'ListOptions', causes: Cause[]): void {
  if (causes.length > 0) throw invalid('meta.k8s.io', kind, '', causes);
}

/** ValidateListOptions for a list (a watch's are checked where it opens): in kube-apiserver's order. */
export function listOptionsCauses(o: { resourceVersion?: string; resourceVersionMatch?: string; continue?: string; sendInitialEvents?: string }): Cause[] {
  const causes: Cause[] = [];
  const match = o.resourceVersionMatch;
  const forbidden = (field: string, why: string) => causes.push({ reason: 'FieldValueForbidden', field, message: `Forbidden: ${why}` });
  if (match) {
    if (!o.resourceVersion) forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided');
    if (o.continue) forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided');
    if (match !== 'Exact' && match !== 'NotOlderThan') {
      causes.push({ reason: 'FieldValueNotSupported', field: 'resourceVersionMatch', message: `Unsupported value: ${JSON.stringify(match)}: supported values: "Exact", "NotOlderThan", ""` });
    }
    if (match === 'Exact' && o.resourceVersion === '0') forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"');
  }
  if (o.sendInitialEvents !== undefined) forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list');
  return causes;
}
