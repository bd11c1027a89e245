import type { NameRule } from './resourceInfo.ts';
import type { Cause } from '../../shared/apiErrors.ts';

// Name validation as apimachinery's validation package words it, so 422 answers read the same.

const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1035 = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export function validateName(name: string, rule: NameRule, field = 'metadata.name', shown = name): Cause[] {
  const causes: Cause[] = [];
  const bad = (message: string): void => {
    causes.push({ reason: 'FieldValueInvalid', field, message: `Invalid value: "${shown}": ${message}` });
  };
  if (rule === 'label') {
    if (name.length > 63) bad('must be no more than 63 characters');
    if (!LABEL.test(name)) {
      bad(`a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`);
    }
  } else if (rule === 'dns1035') {
    if (name.length > 63) bad('must be no more than 63 characters');
    if (!DNS1035.test(name)) {
      bad(`a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`);
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

/**
 * generateName checked as a name's prefix: apimachinery's maskTrailingDash replaces its last two
 * characters with an `a` when it ends in `-`, so `my-` is checked as `ma` and a prefix ending in a
 * dash passes the rule that the name must end alphanumeric.
 */
export function validateGenerateName(generateName: string, rule: NameRule): Cause[] {
  const masked = generateName.length > 1 && generateName.endsWith('-') ? `${generateName.slice(0, -2)}a` : generateName;
  return validateName(masked, rule, 'metadata.generateName', generateName);
}

const GENERATE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
/** The generator keeps at most 58 characters of generateName, so that a name it makes fits 63. */
const MAX_GENERATED_BASE = 58;

/** generateName's suffix: five characters from the apiserver's alphabet (no vowels, no look-alikes). */
export function generateSuffix(random: () => number): string {
  let s = '';
  for (let i = 0; i < 5; i++) s += GENERATE_ALPHABET[Math.floor(random() * GENERATE_ALPHABET.length)] ?? 'x';
  return s;
}

/** The name made from generateName: its first 58 characters and a random suffix. */
export function generatedName(generateName: string, random: () => number): string {
  return generateName.slice(0, MAX_GENERATED_BASE) + generateSuffix(random);
}

/** All annotations of an object together, keys and values (ValidateAnnotationsSize). */
const MAX_ANNOTATIONS_BYTES = 256 * 1024;

const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

const QUALIFIED_NAME_RULE = 'must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')';
const SUBDOMAIN_RULE = 'a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')';

/** ValidateQualifiedName: `prefix/name` as label keys are (a StorageClass's provisioner, a resource name). */
export function validateQualifiedName(value: string, field: string): Cause[] {
  const causes: Cause[] = [];
  validateKey(value, field, causes);
  return causes;
}

/** A label or annotation key's problems, worded as IsQualifiedName words them (one cause each). */
function validateKey(key: string, field: string, causes: Cause[]): void {
  const bad = (message: string): void => {
    causes.push({ reason: 'FieldValueInvalid', field, message: `Invalid value: "${key}": ${message}` });
  };
  const parts = key.split('/');
  if (parts.length > 2) return bad(`a qualified name ${QUALIFIED_NAME_RULE} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`);
  const name = parts.at(-1)!;
  if (parts.length === 2) {
    const prefix = parts[0]!;
    if (prefix === '') bad('prefix part must be non-empty');
    else {
      if (prefix.length > 253) bad('prefix part must be no more than 253 characters');
      if (!SUBDOMAIN.test(prefix)) bad(`prefix part ${SUBDOMAIN_RULE}`);
    }
  }
  if (name.length === 0) bad('name part must be non-empty');
  else if (name.length > 63) bad('name part must be no more than 63 characters');
  if (!QUALIFIED_NAME.test(name)) bad(`name part ${QUALIFIED_NAME_RULE}`);
}

/** Label keys and values as ValidateLabels checks them (a selector's matchLabels, a node selector…). */
export function validateLabels(labels: unknown, field: string): Cause[] {
  const causes: Cause[] = [];
  if (!labels || typeof labels !== 'object') return causes;
  for (const [k, v] of Object.entries(labels)) {
    validateKey(k, field, causes);
    // IsValidLabelValue: the length and the pattern are two complaints.
    if (typeof v === 'string' && v.length > 63) causes.push({ reason: 'FieldValueInvalid', field, message: `Invalid value: "${v}": must be no more than 63 characters` });
    if (typeof v !== 'string' || !LABEL_VALUE.test(v)) {
      causes.push({ reason: 'FieldValueInvalid', field, message: `Invalid value: "${String(v)}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')` });
    }
  }
  return causes;
}

/** metadata.labels and metadata.annotations keys (and label values), as the API server checks them; a pod template's are under `spec.template.metadata`. */
export function validateLabelsAndAnnotations(labels: unknown, annotations: unknown, metadataField = 'metadata'): Cause[] {
  const causes: Cause[] = validateLabels(labels, `${metadataField}.labels`);
  if (annotations && typeof annotations === 'object') {
    let total = 0;
    const field = `${metadataField}.annotations`;
    for (const [k, v] of Object.entries(annotations)) {
      validateKey(k, field, causes);
      if (typeof v !== 'string') causes.push({ reason: 'FieldValueInvalid', field, message: `Invalid value: ${JSON.stringify(v)}: annotation values must be strings` });
      total += k.length + (typeof v === 'string' ? v.length : 0);
    }
    if (total > MAX_ANNOTATIONS_BYTES) causes.push({ reason: 'FieldValueTooLong', field, message: `Too long: must have at most ${MAX_ANNOTATIONS_BYTES} bytes` });
  }
  return causes;
}
