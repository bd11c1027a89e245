import type { KubeObject } from '../../shared/k8s.ts';
import { jsonEqual } from '../vocabulary/jsonEqual.ts';
import { badRequest } from '../../shared/apiErrors.ts';
import { conflictError, type Conflict } from './conflicts.ts';
import type { FieldSet } from './fieldSet.ts';
import { MissingKeyError, compare, fieldSetOf } from './fieldWalk.ts';
import {
  capUpdateManagers, decodeManagedFields, encodeManagedFields, identityOf, isReset, type ManagerEntry,
} from './managedFields.ts';
import { mergeApplied, removeStale } from './merge.ts';
import { KUBECTL_MANAGER, fieldsLastAppliedClientSide, refreshLastApplied } from './lastApplied.ts';

export { committedFields, writeEnded } from './managedFields.ts';
import type { Shape } from './shape.ts';

// Field management on the write path, as kube-apiserver's field manager does it: every create,
// update and patch records what its manager changed (an Update entry), and server-side apply
// merges a configuration, takes ownership of what it sets, removes what it stopped setting, and
// answers 409 when it would change another manager's fields (unless forced).

export interface FieldManagement {
  manager: string;
  /** The request's apiVersion (`apps/v1`). */
  apiVersion: string;
  subresource?: string;
  /** RFC 3339, second precision. */
  now: string;
  shape: Shape;
  /** The part of a set this write may own (status is reset on main-resource writes of kinds with /status…). */
  ownable(set: FieldSet): FieldSet;
}

const BEFORE_FIRST_APPLY = 'before-first-apply';

function tryDecode(raw: unknown): ManagerEntry[] | undefined {
  try {
    return decodeManagedFields(raw);
  } catch {
    return undefined;
  }
}

/** Entries without the given fields (a new entry only where something was taken). */
function without(entries: readonly ManagerEntry[], taken: FieldSet): ManagerEntry[] {
  if (taken.isEmpty()) return [...entries];
  return entries.map((e) => (e.set.intersection(taken).isEmpty() ? e : { ...e, set: e.set.difference(taken), raw: undefined }));
}

function sameSet(a: FieldSet, b: FieldSet): boolean {
  return a.difference(b).isEmpty() && b.difference(a).isEmpty();
}

function finish(obj: KubeObject, entries: ManagerEntry[]): void {
  delete obj.metadata.managedFields;
  const encoded = encodeManagedFields(capUpdateManagers(entries.filter((e) => !e.set.isEmpty())));
  if (encoded.length) obj.metadata.managedFields = encoded as KubeObject['metadata']['managedFields'];
}

function updateEntry(fm: FieldManagement, set: FieldSet, operation: 'Update' | 'Apply', manager = fm.manager): ManagerEntry {
  const e: ManagerEntry = { manager, operation, apiVersion: fm.apiVersion, time: fm.now, set };
  if (fm.subresource) e.subresource = fm.subresource;
  return e;
}

/**
 * Sets `next.metadata.managedFields` for a create (`live` undefined), update or non-apply patch.
 * The request may replace managedFields with valid entries, or clear them with `[]` / `[{}]`; an
 * object whose managedFields were cleared is not tracked again until the next apply.
 */
/** `requestedForm`: the object the request made, where the stored `next` puts some of it back (requestedForm.ts). */
export function recordUpdate(live: Readonly<KubeObject> | undefined, next: KubeObject, fm: FieldManagement, requestedForm: Readonly<KubeObject> = next): void {
  const requested = next.metadata.managedFields;
  let entries: ManagerEntry[];
  if (fm.subresource) entries = tryDecode(live?.metadata.managedFields) ?? [];
  else if (isReset(requested)) entries = [];
  else if (requested === undefined || (live && jsonEqual(requested, live.metadata.managedFields))) {
    // The common case: the request kept the stored managedFields (decoded once, cached with the object).
    entries = tryDecode(live?.metadata.managedFields) ?? [];
  } else {
    const sent = tryDecode(requested);
    entries = sent?.length ? sent : tryDecode(live?.metadata.managedFields) ?? [];
  }
  if (entries.length === 0 && live) {
    delete next.metadata.managedFields;
    return;
  }
  const cmp = compare(live, requestedForm, fm.shape);
  const changed = fm.ownable(cmp.added.union(cmp.modified));
  const out = without(entries, changed.union(cmp.removed));
  if (!changed.isEmpty()) {
    const id = identityOf({ manager: fm.manager, operation: 'Update', apiVersion: fm.apiVersion, subresource: fm.subresource });
    const i = out.findIndex((e) => identityOf(e) === id);
    const prev = out[i];
    // kube-apiserver's /scale handler rebuilds the parent's entries with the times they had, so a
    // scale manager's entry never gets one.
    const time = fm.subresource === 'scale' ? prev?.time : fm.now;
    if (prev) out[i] = { ...prev, set: prev.set.union(changed), time, raw: undefined };
    else out.push({ ...updateEntry(fm, changed, 'Update'), time });
  }
  finish(next, out);
}

/** The set an applied configuration claims, or a 400 the way the API server words a bad one. */
function configSetOf(config: KubeObject, fm: FieldManagement): FieldSet {
  try {
    return fm.ownable(fieldSetOf(config, fm.shape));
  } catch (err) {
    if (err instanceof MissingKeyError) throw badRequest(`failed to create typed patch object: ${err.message}`);
    throw err;
  }
}

/** Refuses what an applied configuration may not carry. */
export function checkAppliedConfiguration(config: KubeObject, expected: { group: string; version: string; kind: string }): void {
  if (config.metadata?.managedFields !== undefined) throw badRequest('metadata.managedFields must be nil');
  // The configuration must be of the kind and version the URL names (a missing kind too), as the
  // field manager's version check words it: a GroupVersionKind printed by Go.
  const [group, version] = String(config.apiVersion ?? '').includes('/') ? String(config.apiVersion).split('/', 2) : ['', String(config.apiVersion ?? '')];
  const kind = String(config.kind ?? '');
  if (group !== expected.group || version !== expected.version || kind !== expected.kind) {
    throw badRequest(`invalid object type: ${group}/${version}, Kind=${kind}`);
  }
}

/** The object an apply creates: the configuration, owned by its applier. */
export function recordApplyCreate(obj: KubeObject, config: KubeObject, fm: FieldManagement): void {
  finish(obj, [updateEntry(fm, configSetOf(config, fm), 'Apply')]);
}

/**
 * Server-side apply of `config` onto `live`: the merged object with its managedFields, or a 409
 * listing the fields other managers own that it would change (`force` takes them over).
 * `liveCopy` is a mutable copy of `live` the result is built from (and shares parts with).
 */
export function applyConfiguration(live: Readonly<KubeObject>, liveCopy: KubeObject, config: KubeObject, fm: FieldManagement, force: boolean): KubeObject {
  const configSet = configSetOf(config, fm);
  let entries = tryDecode(live.metadata.managedFields) ?? [];
  if (entries.length === 0) {
    // Fields set before anyone applied belong to a placeholder manager, so an apply can conflict with them.
    const existing = compare(undefined, live, fm.shape);
    entries = [{ ...updateEntry(fm, existing.added.union(existing.modified), 'Update', BEFORE_FIRST_APPLY), subresource: undefined }];
  }
  const merged = mergeApplied(liveCopy, config, fm.shape) as KubeObject;
  const id = identityOf({ manager: fm.manager, operation: 'Apply', apiVersion: fm.apiVersion, subresource: fm.subresource });
  const previous = entries.find((e) => identityOf(e) === id);
  const others = entries.filter((e) => e !== previous);
  if (previous) {
    let owned = configSet;
    for (const o of others) owned = owned.union(o.set);
    removeStale(merged, previous.set.difference(configSet), owned, fm.shape);
  }
  const cmp = compare(live, merged, fm.shape);
  // Only what this write may change counts (a /status apply cannot change spec: it is reset).
  const changed = fm.ownable(cmp.added.union(cmp.modified));
  const removed = fm.ownable(cmp.removed);
  const conflicts: Conflict[] = [];
  for (const o of others) {
    for (const path of o.set.intersection(changed).paths()) conflicts.push({ owner: o, path });
  }
  if (conflicts.length && !force) {
    // kubectl taking over from its own client-side apply: conflicts on what it last applied there are overlooked.
    const allowed = fm.manager === KUBECTL_MANAGER ? fieldsLastAppliedClientSide(live, fm.apiVersion, fm.shape) : undefined;
    const remaining = allowed ? conflicts.filter((c) => !allowed.has(c.path)) : conflicts;
    if (remaining.length) throw conflictError(remaining);
  }
  const out = without(others, changed.union(removed));
  const unchanged = previous && previous.apiVersion === fm.apiVersion && sameSet(previous.set, configSet) && changed.isEmpty() && removed.isEmpty();
  // The entry's time says when its manager last changed the object: an apply that changed nothing
  // (taking co-ownership of values already there) keeps the one it had, or has none.
  const objectChanged = !(cmp.added.isEmpty() && cmp.modified.isEmpty() && cmp.removed.isEmpty());
  out.push(unchanged ? previous : { ...updateEntry(fm, configSet, 'Apply'), time: objectChanged ? fm.now : previous?.time });
  finish(merged, out);
  if (fm.manager === KUBECTL_MANAGER) refreshLastApplied(merged, config);
  return merged;
}
