import { isObj, items, obj, type Obj } from './defaulting.ts';
import type { KindModule } from './kindModule.ts';
import { limitRangeCauses } from './limitRangeValidation.ts';
import { CREATED_AT_COLUMN, NAME_COLUMN } from '../vocabulary/tableCells.ts';

// LimitRanges (core v1). SetDefaults_LimitRangeItem: for a Container item, a missing default limit
// is the max, a missing default request is the default limit, else the min — the values the
// LimitRanger admission plugin then puts into pods. Empty maps stay out (omitempty in the JSON).

function fillMissing(target: Obj, from: unknown): void {
  if (!isObj(from)) return;
  for (const [resource, quantity] of Object.entries(from)) if (target[resource] === undefined) target[resource] = quantity;
}

function limitRangeDefaults(o: Obj): void {
  for (const item of items(obj(o, 'spec'), 'limits')) {
    if (item.type !== 'Container') continue;
    const defaults: Obj = isObj(item.default) ? item.default : {};
    fillMissing(defaults, item.max);
    const requests: Obj = isObj(item.defaultRequest) ? item.defaultRequest : {};
    fillMissing(requests, defaults);
    fillMissing(requests, item.min);
    if (Object.keys(defaults).length > 0) item.default = defaults;
    if (Object.keys(requests).length > 0) item.defaultRequest = requests;
  }
}

export const limitRangeKind: KindModule = {
  api: { group: '', version: 'v1', resource: 'limitranges', kind: 'LimitRange', shortNames: ['limits'] },
  strategy: { defaults: (o) => limitRangeDefaults(o as Obj), validate: limitRangeCauses },
  columns: [NAME_COLUMN, CREATED_AT_COLUMN],
};
