import type { KubeObject } from '../../shared/k8s.ts';
import type { Cause } from '../../shared/apiErrors.ts';
import { immutableData, tooLong, validateDataKey } from './dataKeys.ts';
import type { KindStrategy } from './kindStrategy.ts';
import type { KindModule } from './kindModule.ts';
import { countKeys } from './configMap.ts';
import { goJsonSyntaxError } from '../vocabulary/goJsonSyntax.ts';
import { AGE_COLUMN, col, NAME_COLUMN, str } from '../vocabulary/tableCells.ts';

// Secrets: `stringData` is write-only — merged into `data` as base64 (its keys win) and never
// stored; `type` defaults to Opaque and is immutable; the built-in types require their keys; the
// data stays as it is once `immutable: true`.

const REQUIRED_KEYS: Record<string, string[]> = {
  'kubernetes.io/tls': ['tls.crt', 'tls.key'],
  'kubernetes.io/dockerconfigjson': ['.dockerconfigjson'],
  'kubernetes.io/dockercfg': ['.dockercfg'],
  'kubernetes.io/ssh-auth': ['ssh-privatekey'],
};

/** The types whose config must be a JSON object, and its key. */
const DOCKER_CONFIG_KEYS: Record<string, string> = {
  'kubernetes.io/dockerconfigjson': '.dockerconfigjson',
  'kubernetes.io/dockercfg': '.dockercfg',
};

/** The config is read as Go reads it into a map[string]interface{}: its error, with the contents redacted. */
function dockerConfigCauses(base64: string, key: string): Cause[] {
  const bytes = Buffer.from(base64, 'base64');
  let why = goJsonSyntaxError(bytes);
  if (!why) {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    const type = Array.isArray(value) ? 'array' : typeof value === 'boolean' ? 'bool' : typeof value;
    if (value !== null && type !== 'object') why = `json: cannot unmarshal ${type} into Go value of type map[string]interface {}`;
  }
  return why ? [{ reason: 'FieldValueInvalid', field: `data[${key}]`, message: `Invalid value: "<secret contents redacted>": ${why}` }] : [];
}

export const secretStrategy: KindStrategy = {
  normalize(obj: KubeObject): void {
    const stringData = obj.stringData as Record<string, unknown> | null | undefined;
    if (stringData && typeof stringData === 'object') {
      const data = { ...((obj.data ?? {}) as Record<string, string>) };
      for (const [k, v] of Object.entries(stringData)) if (typeof v === 'string') data[k] = Buffer.from(v, 'utf8').toString('base64');
      obj.data = data;
    }
    delete obj.stringData;
    if (!obj.type) obj.type = 'Opaque';
  },

  validate(obj: Readonly<KubeObject>): Cause[] {
    const data = (obj.data ?? {}) as Record<string, string>;
    const causes: Cause[] = [];
    let total = 0;
    for (const [k, v] of Object.entries(data)) {
      causes.push(...validateDataKey(k, `data[${k}]`));
      total += k.length + (typeof v === 'string' ? Math.floor((v.length * 3) / 4) : 0);
    }
    const type = String(obj.type ?? 'Opaque');
    for (const key of REQUIRED_KEYS[type] ?? []) {
      if (!Object.hasOwn(data, key)) causes.push({ reason: 'FieldValueRequired', field: `data[${key}]`, message: 'Required value' });
    }
    const dockerKey = DOCKER_CONFIG_KEYS[type];
    if (dockerKey && typeof data[dockerKey] === 'string') causes.push(...dockerConfigCauses(data[dockerKey], dockerKey));
    if (type === 'kubernetes.io/basic-auth' && !Object.hasOwn(data, 'username') && !Object.hasOwn(data, 'password')) {
      causes.push({ reason: 'FieldValueRequired', field: 'data[username]', message: 'Required value' });
    }
    if (type === 'kubernetes.io/service-account-token' && !obj.metadata.annotations?.['kubernetes.io/service-account.name']) {
      causes.push({ reason: 'FieldValueRequired', field: 'metadata.annotations[kubernetes.io/service-account.name]', message: 'Required value' });
    }
    return [...causes, ...tooLong(total)];
  },

  validateUpdate(before: Readonly<KubeObject>, after: Readonly<KubeObject>): Cause[] {
    const typeChanged = (before.type ?? 'Opaque') !== (after.type ?? 'Opaque');
    return [
      ...(typeChanged ? [{ reason: 'FieldValueInvalid', field: 'type', message: `Invalid value: ${JSON.stringify(after.type)}: field is immutable` }] : []),
      ...immutableData(before, after, ['data']),
    ];
  },
};

export const secretKind: KindModule = {
  api: { group: '', version: 'v1', resource: 'secrets', kind: 'Secret' },
  strategy: secretStrategy,
  columns: [NAME_COLUMN, col('Type', (o) => str(o, 'type', 'Opaque')), col('Data', (o) => countKeys(o, 'data'), 'integer'), AGE_COLUMN],
};
