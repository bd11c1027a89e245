import type { KubeObject } from '../../shared/k8s.ts';
import { itemKey, member, type FieldDifference } from './fieldDiff.ts';
import type { Identified } from './identity.ts';
import { isHistoryPath, type Masks } from './masks.ts';

// A value made up at random (a CA, a password, a token) differs from run to run, so the oracle
// does not compare it; but where a controller puts one value in two places (a CA in the secret
// clients see and in the one members use among themselves) that they agree is state. So a value
// that varies between the reference runs yet sits in the same places in each of them ties those
// places: a run in which they hold different values (a second CA made after a restart) differs.

/** A field of an object, as the oracle names both. */
export interface Place {
  id: string;
  path: string;
}

/** Places holding one value in every reference run, a value that differs between the runs. */
export type Tie = readonly Place[];

/** Too short or all digits (a count, a resourceVersion), a value two places may share by chance; a time is not made up. */
const MEANINGFUL = /^(?!\d+$).{8,}$/;

export function learnTies(references: readonly Identified[], masks: Masks): Tie[] {
  const [first, ...others] = references;
  if (!first || others.length === 0) return [];
  const groups = new Map<string, Place[]>();
  for (const [id, object] of first) {
    for (const [path, value] of leaves(object)) {
      if (!varies(masks, id, path) || !MEANINGFUL.test(value) || !Number.isNaN(Date.parse(value))) continue;
      const places = groups.get(value);
      if (places) places.push({ id, path });
      else groups.set(value, [{ id, path }]);
    }
  }
  const ties: Tie[] = [];
  for (const places of groups.values()) {
    if (places.length < 2) continue;
    const heldAlike = others.every((run) => {
      const values = places.map((p) => valueAt(run, p));
      return values[0] !== undefined && values.every((v) => v === values[0]);
    });
    if (heldAlike) ties.push(places);
  }
  return ties;
}

/** Per object, the tied fields that hold another value than the first place of their tie. */
export function brokenTies(ties: readonly Tie[], got: Identified): Map<string, FieldDifference[]> {
  const out = new Map<string, FieldDifference[]>();
  for (const [first, ...rest] of ties) {
    const expected = first && valueAt(got, first);
    if (!first || expected === undefined) continue;
    for (const place of rest) {
      const value = valueAt(got, place);
      if (value === undefined || value === expected) continue;
      const fields = out.get(place.id) ?? [];
      fields.push({ path: place.path, expected: `${expected} (as ${first.id} ${first.path}: the same value in every reference run)`, got: value });
      out.set(place.id, fields);
    }
  }
  return out;
}

function varies(masks: Masks, id: string, path: string): boolean {
  if (isHistoryPath(path)) return false;
  const paths = masks.unstablePaths.get(id);
  if (!paths) return false;
  for (const p of paths) if (path === p || path.startsWith(`${p}.`) || path.startsWith(`${p}[`)) return true;
  return false;
}

function valueAt(objects: Identified, place: Place): string | undefined {
  const object = objects.get(place.id);
  return object ? leaves(object).get(place.path) : undefined;
}

/** Every string in the object, by the path fieldDifferences would name it. */
function leaves(object: KubeObject): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (v: unknown, path: string): void => {
    if (typeof v === 'string') out.set(path, v);
    else if (Array.isArray(v)) {
      const key = itemKey(v as Parameters<typeof itemKey>[0]);
      v.forEach((item, i) => walk(item, key ? `${path}[${key}=${(item as Record<string, string>)[key]}]` : `${path}[${i}]`));
    } else if (typeof v === 'object' && v !== null) for (const [k, item] of Object.entries(v)) walk(item, `${path}${member(k)}`);
  };
  walk(object, '');
  return out;
}
