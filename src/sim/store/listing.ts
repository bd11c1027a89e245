import type { ResourceInfo } from '../vocabulary/resourceInfo.ts';
import { parseFieldSelector, type FieldSelector } from '../selectors/fieldSelector.ts';
import { parseLabelSelector, type LabelSelector } from '../../shared/labelSelector.ts';
import { badRequest, continueExpired, expired, invalid, tooLargeResourceVersion, unclassified } from '../../shared/apiErrors.ts';
import { INCONSISTENT, decodeContinue, encodeContinue } from './continueToken.ts';
import type { MvccStore, ResourceTable, StateView } from './mvccStore.ts';
import { parseResourceVersion } from './resourceVersionParam.ts';
import type { Stored } from './storedObject.ts';
import type { ListRequest, ListResult } from './types.ts';

// Lists with the API server's resourceVersion semantics:
//   unset            → the latest state (a consistent read)
//   0                → any state; served from the "cache" — the latest, with `limit` ignored as the
//                      watch cache ignores it (so a reflector's first RV=0 list arrives in one page)
//   N (NotOlderThan) → at least N: the latest; N newer than the store → 504 Too large resource version
//                      (the real server first waits up to 3 s for it; nothing would arrive here)
//   N, Exact         → exactly N, rebuilt from the watch-cache window; 410 when N is older
// Pages: `limit` + `continue` (the token pins the snapshot RV; a compacted one → 410 Expired).

export interface Filters {
  namespace: string;
  label: LabelSelector;
  field: FieldSelector;
}

export function parseFilters(info: ResourceInfo, namespace: string | undefined, labelSelector?: string, fieldSelector?: string): Filters {
  return {
    namespace: info.namespaced ? namespace ?? '' : '',
    label: parseLabelSelector(labelSelector),
    field: parseFieldSelector(fieldSelector, info.kind, info.source === 'crd'),
  };
}

export function matchesFilters(f: Filters, stored: Stored): boolean {
  const obj = stored.object;
  if (f.namespace !== '' && obj.metadata.namespace !== f.namespace) return false;
  return f.label.matches(obj.metadata.labels) && f.field.matches(obj);
}

/** The oldest RV this table can still answer for. */
export function windowStartOf(store: MvccStore, table: ResourceTable): number {
  return Math.max(table.history.windowStart, store.compactedRv);
}

/** The matching objects at one RV, in key order. */
export function* matching(state: StateView, f: Filters, fromKey = ''): Generator<[string, Stored]> {
  const prefix = f.namespace === '' ? '' : `${f.namespace}/`;
  const noSelectors = f.label.empty && f.field.empty;
  for (const key of state.range(prefix, fromKey)) {
    const stored = state.get(key);
    if (stored && (noSelectors || matchesFilters(f, stored))) yield [key, stored];
  }
}

/** A list request's options the API server refuses as it validates ListOptions: 422 on meta.k8s.io ListOptions. */
function invalidListOptions(why: string): Error {
  return invalid('meta.k8s.io', 'ListOptions', '', [{ reason: 'FieldValueForbidden', field: 'resourceVersionMatch', message: `Forbidden: ${why}` }]);
}

function stateAt(store: MvccStore, table: ResourceTable, rv: number, onExpired: () => Error): StateView {
  if (rv >= store.resourceVersion) return table.view();
  // Lists go to storage, which periodic compaction may have cut below the watch cache's window.
  if (rv < windowStartOf(store, table) || rv < store.storageCompactedRv) throw onExpired();
  return table.stateAt(rv);
}

export interface ListEnvelope {
  kind: string;
  apiVersion: string;
}

export function listTable(store: MvccStore, table: ResourceTable, info: ResourceInfo, request: ListRequest, envelope: ListEnvelope): ListResult {
  const filters = parseFilters(info, request.namespace, request.labelSelector, request.fieldSelector);
  const current = store.resourceVersion;
  let snapshot = current;
  let fromKey = '';
  let limit = request.limit !== undefined && request.limit > 0 ? Math.floor(request.limit) : 0;
  let state: StateView;

  if (request.continue) {
    if (request.resourceVersion && request.resourceVersion !== '0') throw badRequest('specifying resource version is not allowed when using continue');
    const token = decodeContinue(request.continue);
    fromKey = token.start;
    if (token.rv === INCONSISTENT) {
      state = table.view();
    } else {
      snapshot = token.rv;
      if (snapshot > current) throw badRequest('continue key is not valid: resource version is newer than the server');
      state = stateAt(store, table, snapshot, () => continueExpired(encodeContinue(INCONSISTENT, fromKey)));
    }
  } else {
    const rv = parseResourceVersion(request.resourceVersion);
    const match = request.resourceVersionMatch;
    if (match && rv === undefined) throw invalidListOptions('resourceVersionMatch is forbidden unless resourceVersion is provided');
    if (match === 'Exact') {
      if (rv === 0) throw invalidListOptions('resourceVersionMatch "exact" is forbidden for resourceVersion "0"');
      const exact = rv ?? current;
      // kube-apiserver passes an Exact list to etcd, whose refusal of a revision it has not reached
      // comes back as an unclassified 500 (no reason); clients see exactly that.
      if (exact > current) throw unclassified('etcdserver: mvcc: required revision is a future revision');
      snapshot = exact;
      state = stateAt(store, table, exact, () => expired('The resourceVersion for the provided list is too old.'));
    } else {
      if (rv !== undefined && rv > current) throw tooLargeResourceVersion(rv, current);
      if (rv === 0) limit = 0;
      state = table.view();
    }
  }

  const items: Stored[] = [];
  let nextKey: string | undefined;
  let remaining = 0;
  const iter = matching(state, filters, fromKey);
  for (let step = iter.next(); !step.done; step = iter.next()) {
    const [key, stored] = step.value;
    if (limit > 0 && items.length >= limit) {
      nextKey = key;
      remaining = 1;
      break;
    }
    items.push(stored);
  }
  const result: ListResult = {
    resourceVersion: snapshot,
    items,
    kind: envelope.kind,
    apiVersion: envelope.apiVersion,
    json: () => listJson(result),
  };
  if (info.source === 'builtin') result.bareItems = true;
  if (nextKey !== undefined) {
    result.continue = encodeContinue(snapshot, nextKey);
    if (filters.label.empty && filters.field.empty) {
      if (state.countFrom) remaining = state.countFrom(filters.namespace === '' ? '' : `${filters.namespace}/`, nextKey);
      else for (const _ of iter) remaining++;
      result.remainingItemCount = remaining;
    }
  }
  return result;
}

function listHead(list: Omit<ListResult, 'json'>): string {
  const meta: Record<string, unknown> = {};
  // A custom resource list is unstructured in kube-apiserver, whose setter writes `continue` even
  // when empty (and encodes the keys sorted); built-in lists' typed ListMeta omits it.
  if (list.continue || !list.bareItems) meta.continue = list.continue ?? '';
  if (list.remainingItemCount !== undefined) meta.remainingItemCount = list.remainingItemCount;
  meta.resourceVersion = String(list.resourceVersion);
  return `{"kind":${JSON.stringify(list.kind)},"apiVersion":${JSON.stringify(list.apiVersion)},"metadata":${JSON.stringify(meta)},"items":[`;
}

/**
 * An item's JSON in a list: without its leading kind and apiVersion when the list is of a built-in
 * kind. Stored objects start with those two keys, so this is a slice of the cached JSON; an object
 * written in another key order is serialized again without them.
 */
function itemJson(list: Omit<ListResult, 'json'>, item: ListResult['items'][number]): string {
  const json = item.json();
  if (!list.bareItems) return json;
  const { kind, apiVersion } = item.object;
  const head = `{"kind":${JSON.stringify(kind)},"apiVersion":${JSON.stringify(apiVersion)},`;
  if (json.startsWith(head)) return `{${json.slice(head.length)}`;
  const { kind: _k, apiVersion: _a, ...rest } = item.object;
  return JSON.stringify(rest);
}

/** `{"kind":…,"apiVersion":…,"metadata":{…},"items":[…]}` from the items' cached JSON. */
export function listJson(list: Omit<ListResult, 'json'>): string {
  return `${listHead(list)}${list.items.map((i) => itemJson(list, i)).join(',')}]}`;
}

/**
 * The same text as listJson, in pieces of about `chunkChars` characters, each made only when
 * asked for: a big list is serialized as its client reads it, and not at all past a disconnect.
 */
export function* listJsonChunks(list: Omit<ListResult, 'json'>, chunkChars = 64 * 1024): Generator<string> {
  let parts: string[] = [listHead(list)];
  let chars = parts[0]!.length;
  for (let i = 0; i < list.items.length; i++) {
    const json = itemJson(list, list.items[i]!);
    parts.push(i === 0 ? json : `,${json}`);
    chars += json.length + 1;
    if (chars >= chunkChars) {
      yield parts.join('');
      parts = [];
      chars = 0;
    }
  }
  parts.push(']}');
  yield parts.join('');
}

