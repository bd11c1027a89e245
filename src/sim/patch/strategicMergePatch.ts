// Strategic merge patch for built-in kinds, as far as kubectl apply/scale/label/annotate/patch use
// it. Lists of objects with a merge key (containers by name, ports by containerPort, env by name,
// volumes by name, volumeMounts by mountPath, …) merge item by item; other lists are replaced.
// Directives: `$patch: replace|delete|merge` (in maps and list items), `$retainKeys`,
// `$deleteFromPrimitiveList/<field>`; `$setElementOrder/<field>` is accepted and ignored (order
// of merged items is: existing order, then new items, which is what kubectl expects in practice).
// The merge keys come from the Go types' `patchMergeKey` tags; we key them by field name (and for
// `ports`, by context) rather than carrying OpenAPI schemas.

import { cloneJson } from '../../shared/cloneJson.ts';

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

export class StrategicPatchError extends Error {}

function mergeMap(target: Obj, patch: Obj, path: readonly string[]): Obj | undefined {
  const directive = patch.$patch;
  if (directive === 'delete') return undefined;
  if (directive === 'replace') {
    const out: Obj = {};
    for (const [k, v] of Object.entries(patch)) if (k !== '$patch') out[k] = stripDirectives(v);
    return out;
  }
  const result: Obj = { ...target };
  const retainKeys = Array.isArray(patch.$retainKeys) ? (patch.$retainKeys as string[]) : undefined;
  for (const [k, v] of Object.entries(patch)) {
    if (k === '$patch' || k === '$retainKeys' || k.startsWith('$setElementOrder/')) continue;
    if (k.startsWith('$deleteFromPrimitiveList/')) {
      const field = k.slice('$deleteFromPrimitiveList/'.length);
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
  if (retainKeys) for (const k of Object.keys(result)) if (!retainKeys.includes(k)) delete result[k];
  return result;
}

function mergeList(target: unknown[], patch: unknown[], field: string, parentPath: readonly string[]): unknown[] {
  const path = [...parentPath, field];
  // `[{$patch: replace}, …]` replaces the whole list with the other items.
  if (patch.some((p) => isObject(p) && p.$patch === 'replace' && Object.keys(p).length === 1)) {
    return patch.filter((p) => !(isObject(p) && p.$patch === 'replace')).map(stripDirectives);
  }
  const key = mergeKeyFor(field, parentPath);
  if (key === undefined) {
    if (mergesPrimitives(field, parentPath)) {
      const out = [...target];
      for (const p of patch) if (!out.includes(p)) out.push(p);
      return out;
    }
    return patch.map(stripDirectives);
  }
  const out = [...target];
  for (const p of patch) {
    if (!isObject(p)) continue;
    const idx = out.findIndex((t) => isObject(t) && t[key] === p[key]);
    if (p.$patch === 'delete') {
      if (idx >= 0) out.splice(idx, 1);
      continue;
    }
    if (idx >= 0) {
      const merged = mergeMap(out[idx] as Obj, p, path);
      if (merged === undefined) out.splice(idx, 1);
      else out[idx] = merged;
    } else {
      out.push(mergeMap({}, p, path) ?? {});
    }
  }
  return out;
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
