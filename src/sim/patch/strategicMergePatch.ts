// Strategic merge patch for built-in kinds, as far as kubectl apply/scale/label/annotate/patch use
// it. Lists of objects with a merge key (containers by name, ports by containerPort, env by name,
// volumes by name, volumeMounts by mountPath, …) merge item by item; other lists are replaced.
// Directives: `$patch: replace|delete|merge` (in maps and list items), `$retainKeys`,
// `$deleteFromPrimitiveList/<field>` and `$setElementOrder/<field>`. Merged lists are ordered as
// apimachinery orders them (mergedListOrder.ts). Malformed directives fail with apimachinery's
// words and status: a bad directive format is a 400, an unknown `$patch` or a list item without
// its merge key is the plain error kube-apiserver answers with a 500.
// The merge keys come from the Go types' `patchMergeKey` tags; we key them by field name (and for
// `ports`, by context) rather than carrying OpenAPI schemas.

import { cloneJson } from '../../shared/cloneJson.ts';
import { goPlainValue } from '../goTypes/unstructuredConversion.ts';
import { orderMergedList } from './mergedListOrder.ts';

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Lists whose items merge by a key field. `path` is the chain of field names from the root. */
export function mergeKeyFor(field: string, path: readonly string[]): string | undefined {
  switch (field) {
    case 'containers':
    case 'initContainers':
    case 'ephemeralContainers':
    case 'volumes':
    case 'env':
    case 'imagePullSecrets':
    case 'resourceClaims':
    case 'schedulingGates':
    case 'webhooks':
      return 'name';
    case 'volumeMounts': return 'mountPath';
    case 'volumeDevices': return 'devicePath';
    case 'ports':
      // Container ports merge by containerPort; Service (and endpoint) ports by port.
      return path.includes('containers') || path.includes('initContainers') || path.includes('ephemeralContainers') ? 'containerPort' : 'port';
    case 'conditions': return 'type';
    case 'ownerReferences': return 'uid';
    case 'hostAliases': return 'ip';
    case 'podIPs':
    case 'hostIPs':
      return 'ip';
    case 'topologySpreadConstraints': return 'topologyKey';
    case 'readinessGates': return 'conditionType';
    case 'resizePolicy': return 'resourceName';
    case 'addresses': return path.includes('status') && !path.includes('subsets') ? 'type' : undefined;
    default: return undefined;
  }
}

/** Primitive lists whose patchStrategy is merge (union instead of replace). */
function mergesPrimitives(field: string, path: readonly string[]): boolean {
  return field === 'finalizers' && path[path.length - 1] === 'metadata';
}

/** status 400 for a malformed directive; 500 where kube-apiserver passes apimachinery's error on as it is. */
export class StrategicPatchError extends Error {
  readonly status: 400 | 500;
  constructor(message: string, status: 400 | 500 = 400) {
    super(message);
    this.status = status;
  }
}

const noMergeKey = (item: Obj, key: string) => new StrategicPatchError(`map: ${goPlainValue(item)} does not contain declared merge key: ${key}`, 500);
const badPatchType = (directive: unknown, item: Obj) => new StrategicPatchError(`unknown patch type: ${String(directive)} in map: ${goPlainValue(item)}`, 500);
const DELETE_FROM = '$deleteFromPrimitiveList';
const ELEMENT_ORDER = '$setElementOrder';

/** The field a `$deleteFromPrimitiveList/x` or `$setElementOrder/x` key names, or its format error. */
function directiveField(key: string, prefix: string): string {
  const slash = key.indexOf('/');
  if (slash < 0 || key.slice(0, slash) !== prefix) {
    throw new StrategicPatchError(prefix === DELETE_FROM ? 'invalid patch format of primitive list' : 'invalid patch format of setElementOrder list');
  }
  return key.slice(slash + 1);
}

function mergeMap(target: Obj, patch: Obj, path: readonly string[]): Obj | undefined {
  const directive = patch.$patch;
  if (directive === 'delete') return undefined;
  if (directive === 'replace') {
    const out: Obj = {};
    for (const [k, v] of Object.entries(patch)) if (k !== '$patch') out[k] = stripDirectives(v);
    return out;
  }
  if (directive !== undefined) throw badPatchType(directive, patch);
  if (patch.$retainKeys !== undefined && !Array.isArray(patch.$retainKeys)) throw new StrategicPatchError('invalid patch format of retainKeys');
  const result: Obj = { ...target };
  const retainKeys = Array.isArray(patch.$retainKeys) ? (patch.$retainKeys as string[]) : undefined;
  const orders: [string, unknown][] = [];
  for (const [k, v] of Object.entries(patch)) {
    if (k === '$patch' || k === '$retainKeys') continue;
    if (k.startsWith(ELEMENT_ORDER)) {
      orders.push([directiveField(k, ELEMENT_ORDER), v]);
      continue;
    }
    if (k.startsWith(DELETE_FROM)) {
      const field = directiveField(k, DELETE_FROM);
      const cur = result[field];
      if (Array.isArray(cur) && Array.isArray(v)) result[field] = cur.filter((x) => !v.includes(x));
      continue;
    }
    if (v === null) {
      delete result[k];
      continue;
    }
    const childPath = [...path, k];
    const cur = result[k];
    if (Array.isArray(v)) {
      const merged = mergeList(Array.isArray(cur) ? cur : [], v, k, path);
      result[k] = merged;
    } else if (isObject(v)) {
      const merged = mergeMap(isObject(cur) ? cur : {}, v, childPath);
      if (merged === undefined) delete result[k];
      else result[k] = merged;
    } else {
      result[k] = v;
    }
  }
  for (const [field, order] of orders) {
    const merged = result[field];
    if (!Array.isArray(order) || !Array.isArray(merged)) continue;
    const before = Array.isArray(target[field]) ? target[field] : [];
    result[field] = orderMergedList(merged, order, before, mergeKeyFor(field, path));
  }
  if (retainKeys) for (const k of Object.keys(result)) if (!retainKeys.includes(k)) delete result[k];
  return result;
}

function mergeList(target: unknown[], patch: unknown[], field: string, parentPath: readonly string[]): unknown[] {
  const path = [...parentPath, field];
  const key = mergeKeyFor(field, parentPath);
  if (key === undefined) {
    // `[{$patch: replace}, …]` replaces the whole list with the other items.
    if (patch.some((p) => isObject(p) && p.$patch === 'replace' && Object.keys(p).length === 1)) {
      return patch.filter((p) => !(isObject(p) && p.$patch === 'replace')).map(stripDirectives);
    }
    if (!mergesPrimitives(field, parentPath)) return patch.map(stripDirectives);
    const merged = [...new Set([...target, ...patch])];
    return orderMergedList(merged, patch, target, undefined);
  }
  // Directive items first (mergeSliceWithSpecialElements): deletions, a replace, refusals.
  let server = target.filter(isObject);
  const items: Obj[] = [];
  let replace = false;
  for (const p of patch) {
    if (!isObject(p)) continue;
    if (p.$patch === undefined) items.push(p);
    else if (p.$patch === 'delete') {
      if (!(key in p)) throw noMergeKey(p, key);
      server = server.filter((t) => t[key] !== p[key]);
    } else if (p.$patch === 'replace') replace = true;
    else if (p.$patch === 'merge') throw new StrategicPatchError('merging lists cannot yet be specified in the patch', 500);
    else throw badPatchType(p.$patch, p);
  }
  if (replace) return items.map(stripDirectives);
  const merged: unknown[] = [...server];
  for (const p of items) {
    if (!(key in p)) throw noMergeKey(p, key);
    const idx = merged.findIndex((t) => isObject(t) && t[key] === p[key]);
    if (idx >= 0) {
      const m = mergeMap(merged[idx] as Obj, p, path);
      if (m === undefined) merged.splice(idx, 1);
      else merged[idx] = m;
    } else {
      merged.push(mergeMap({}, p, path) ?? {});
    }
  }
  return orderMergedList(merged, items, server, key);
}

function stripDirectives(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripDirectives);
  if (!isObject(v)) return v;
  const out: Obj = {};
  for (const [k, x] of Object.entries(v)) {
    if (k.startsWith('$')) continue;
    if (x !== null) out[k] = stripDirectives(x);
  }
  return out;
}

/** Applies a strategic merge patch to `target` (not modified) and returns the result. */
export function applyStrategicMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) throw new StrategicPatchError('strategic merge patch must be a JSON object');
  return mergeMap(isObject(target) ? cloneJson(target) : {}, patch, []) ?? {};
}
