import type { KubeObject } from '../../shared/k8s.ts';
import type { Cause } from '../../shared/apiErrors.ts';
import { immutableData, tooLong, validateDataKey } from './dataKeys.ts';
import type { KindStrategy } from './kindStrategy.ts';
import type { KindModule } from './kindModule.ts';
import { AGE_COLUMN, col, field, NAME_COLUMN, type Obj } from '../vocabulary/tableCells.ts';

// ConfigMaps: valid keys, no key in both data and binaryData, at most 1 MiB of data in all, and
// data that stays as it is once `immutable: true`.

export const configMapStrategy: KindStrategy = {
  validate(obj: Readonly<KubeObject>): Cause[] {
    const data = (obj.data ?? {}) as Record<string, string>;
    const binary = (obj.binaryData ?? {}) as Record<string, string>;
    const causes: Cause[] = [];
    let total = 0;
    for (const [k, v] of Object.entries(data)) {
      causes.push(...validateDataKey(k, `data[${k}]`));
      total += k.length + (typeof v === 'string' ? Buffer.byteLength(v) : 0);
    }
    for (const [k, v] of Object.entries(binary)) {
      causes.push(...validateDataKey(k, `binaryData[${k}]`));
      if (Object.hasOwn(data, k)) causes.push({ reason: 'FieldValueInvalid', field: `data[${k}]`, message: `Invalid value: ${JSON.stringify(k)}: duplicate of key present in binaryData` });
      total += k.length + (typeof v === 'string' ? Math.floor((v.length * 3) / 4) : 0);
    }
    return [...causes, ...tooLong(total)];
  },

  validateUpdate(before: Readonly<KubeObject>, after: Readonly<KubeObject>): Cause[] {
    return immutableData(before, after, ['data', 'binaryData']);
  },
};

/** How many keys the maps at these paths hold together (a ConfigMap's DATA counts binaryData too). */
export function countKeys(obj: Obj, ...paths: string[]): number {
  let n = 0;
  for (const p of paths) {
    const v = field(obj, p);
    if (v && typeof v === 'object') n += Object.keys(v).length;
  }
  return n;
}

export const configMapKind: KindModule = {
  api: { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', shortNames: ['cm'] },
  strategy: configMapStrategy,
  columns: [NAME_COLUMN, col('Data', (o) => countKeys(o, 'data', 'binaryData'), 'integer'), AGE_COLUMN],
};
