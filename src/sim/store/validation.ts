import type { NameRule } from '../resources/types.ts';
import type { Cause } from './apiErrors.ts';

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
