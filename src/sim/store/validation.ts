import type { KubeObject } from '../../shared/k8s.ts';
import type { NameRule, ResourceInfo } from '../resources/types.ts';
import type { Cause } from '../../shared/apiErrors.ts';
import { jsonEqual } from '../jsonEqual.ts';

// Name validation as apimachinery's validation package words it, so 422 answers read the same.

const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export function validateName(name: string, rule: NameRule, field = 'metadata.name'): Cause[] {
  const causes: Cause[] = [];
  const bad = (message: string): void => {
    causes.push({ reason: 'FieldValueInvalid', field, message: `Invalid value: "${name}": ${message}` });
  };
  if (rule === 'label') {
    if (name.length > 63) bad('must be no more than 63 characters');
    if (!LABEL.test(name)) {
      bad(`a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`);
    }
  } else if (rule === 'subdomain') {
    if (name.length > 253) bad('must be no more than 253 characters');
    if (!SUBDOMAIN.test(name)) {
      bad(`a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`);
    }
  } else if (name === '.' || name === '..' || name.includes('/') || name.includes('%')) {
    bad('may not be \'.\' or \'..\' and may not contain \'/\' or \'%\'');
  }
  return causes;
}

const GENERATE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** generateName's suffix: five characters from the apiserver's alphabet (no vowels, no look-alikes). */
export function generateSuffix(random: () => number): string {
  let s = '';
  for (let i = 0; i < 5; i++) s += GENERATE_ALPHABET[Math.floor(random() * GENERATE_ALPHABET.length)] ?? 'x';
  return s;
}

/** All annotations of an object together, keys and values (ValidateAnnotationsSize). */
const MAX_ANNOTATIONS_BYTES = 256 * 1024;

const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

function validateKey(key: string, field: string, causes: Cause[]): void {
  const slash = key.indexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : '';
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  const bad = (message: string): void => {
    causes.push({ reason: 'FieldValueInvalid', field, message: `Invalid value: "${key}": ${message}` });
  };
  if (slash >= 0 && (prefix === '' || prefix.length > 253 || !SUBDOMAIN.test(prefix))) bad('prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character');
  if (name.length === 0 || name.length > 63 || !QUALIFIED_NAME.test(name)) {
    bad('name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\') with an optional DNS subdomain prefix and \'/\' (e.g. \'example.com/MyName\')');
  }
}

/** metadata.labels and metadata.annotations keys (and label values), as the API server checks them. */
export function validateLabelsAndAnnotations(labels: unknown, annotations: unknown): Cause[] {
  const causes: Cause[] = [];
  if (labels && typeof labels === 'object') {
    for (const [k, v] of Object.entries(labels)) {
      validateKey(k, 'metadata.labels', causes);
      if (typeof v !== 'string' || v.length > 63 || !LABEL_VALUE.test(v)) {
        causes.push({ reason: 'FieldValueInvalid', field: 'metadata.labels', message: `Invalid value: "${String(v)}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')` });
      }
    }
  }
  if (annotations && typeof annotations === 'object') {
    let total = 0;
    for (const [k, v] of Object.entries(annotations)) {
      validateKey(k, 'metadata.annotations', causes);
      if (typeof v !== 'string') causes.push({ reason: 'FieldValueInvalid', field: `metadata.annotations`, message: `Invalid value: ${JSON.stringify(v)}: annotation values must be strings` });
      total += k.length + (typeof v === 'string' ? v.length : 0);
    }
    if (total > MAX_ANNOTATIONS_BYTES) causes.push({ reason: 'FieldValueTooLong', field: 'metadata.annotations', message: `Too long: must have at most ${MAX_ANNOTATIONS_BYTES} bytes` });
  }
  return causes;
}

/** Unset and null are the same to a field-is-immutable check. */
const same = (a: unknown, b: unknown): boolean => jsonEqual(a ?? null, b ?? null);

/**
 * Updates the real strategies refuse: data of an `immutable: true` ConfigMap or Secret, the label
 * selector of apps workloads, and a binding's roleRef (controllers delete and recreate instead).
 */
export function immutableFieldChanges(info: ResourceInfo, before: Readonly<KubeObject>, after: Readonly<KubeObject>): Cause[] {
  const causes: Cause[] = [];
  if (info.group === '' && (info.resource === 'configmaps' || info.resource === 'secrets') && before.immutable === true) {
    for (const field of ['data', 'binaryData', ...(info.resource === 'secrets' ? ['stringData', 'type'] : [])]) {
      if (!same(before[field], after[field])) causes.push({ reason: 'FieldValueForbidden', field, message: 'Forbidden: field is immutable when `immutable` is set' });
    }
    if (after.immutable !== true) causes.push({ reason: 'FieldValueForbidden', field: 'immutable', message: 'Forbidden: field is immutable when `immutable` is set' });
  }
  if (info.group === 'apps' && ['deployments', 'replicasets', 'statefulsets', 'daemonsets'].includes(info.resource)) {
    const sel = (o: Readonly<KubeObject>): unknown => (o.spec as { selector?: unknown } | undefined)?.selector;
    if (!same(sel(before), sel(after))) {
      causes.push({ reason: 'FieldValueInvalid', field: 'spec.selector', message: `Invalid value: ${JSON.stringify(sel(after) ?? null)}: field is immutable` });
    }
  }
  if (info.group === 'rbac.authorization.k8s.io' && (info.resource === 'rolebindings' || info.resource === 'clusterrolebindings')) {
    if (!same(before.roleRef, after.roleRef)) {
      causes.push({ reason: 'FieldValueInvalid', field: 'roleRef', message: `Invalid value: ${JSON.stringify(after.roleRef ?? null)}: cannot change roleRef` });
    }
  }
  return causes;
}
