import type { FieldDifference } from '../oracle/index.ts';
import type { Finding } from './finding.ts';

// What a finding shows, as symptoms that can be compared between runs whatever the values:
// `extra ConfigMap default/web-*`, `missing …`, `changed ConfigMap default/web .data.stamp`.
// Two runs of one bug rarely end with the same values — a stale cache that lasts longer makes more
// extra children than a crash does — but they show the same symptoms. An object is named by its
// kind, namespace and name (a generated one by its prefix): not by which of several alike objects
// it is (`#2`), which only says in which order the run happened to create them.

export function symptomsOf(f: Finding): Set<string> {
  const out = new Set<string>();
  const more = new Set(f.objects.filter((o) => o.change !== 'changed').map((o) => objectOf(o.id)));
  for (const o of f.objects) {
    const object = objectOf(o.id);
    if (o.change !== 'changed') {
      out.add(`${o.change} ${object}`);
      continue;
    }
    // With more (or fewer) alike objects than a correct run has, which of them has which values
    // depends on which was made first: their values are no symptom of their own.
    if (more.has(object)) continue;
    for (const path of changedPaths(o.fields ?? [])) out.add(`changed ${object} ${path}`);
  }
  return out;
}

/**
 * The same symptoms with each object named by the line of the controller's code that last wrote
 * it rather than by its name: `extra ConfigMap @reconcile.ts:42`. Two runs with the same roots
 * are one bug shown on other objects (a stale cache's extra child under each of two parents).
 * Undefined when an object's writer is not known (an object the run never wrote, a program that
 * records no callers).
 */
export function rootsOf(f: Finding): Set<string> | undefined {
  if (!f.writtenAt || f.objects.length === 0) return undefined;
  const out = new Set<string>();
  for (const o of f.objects) {
    const site = f.writtenAt[o.id];
    if (site === undefined) return undefined;
    const at = `${o.id.slice(0, o.id.indexOf(' '))} @${site}`;
    if (o.change !== 'changed') out.add(`${o.change} ${at}`);
    else for (const path of changedPaths(o.fields ?? [])) out.add(`changed ${at} ${path}`);
  }
  return out;
}

/**
 * `ConfigMap default/web-* of ConfigMap default/web {app=web} #2` → `ConfigMap default/web-*`: the
 * identity's kind, namespace and name, without its owner, labels and number.
 */
function objectOf(id: string): string {
  // An owner's identity inside a derived name (`<apps/Deployment default/web-* of …>-6b8f`) stays.
  let depth = 0;
  for (let i = 0; i < id.length; i++) {
    if (id[i] === '<') depth++;
    else if (id[i] === '>') depth--;
    else if (depth === 0 && (id.startsWith(' of ', i) || id.startsWith(' {', i) || id.startsWith(' #', i))) return id.slice(0, i);
  }
  return id;
}

/**
 * The fields that differ for more than which of several alike objects they name: a parent that
 * records child `<… #2>` where the reference's records `<… #1>`, a Pod owned by ReplicaSet `#2`
 * (its ownerReference under `[name=<… #1>]` gone, one under `[name=<… #2>]` come) is the same
 * state told in another order.
 */
function changedPaths(fields: readonly FieldDifference[]): string[] {
  const sides = new Map<string, { expected: string[]; got: string[] }>();
  for (const f of fields) {
    const path = unnumbered(f.path);
    const side = sides.get(path) ?? { expected: [], got: [] };
    sides.set(path, side);
    if (f.expected !== undefined) side.expected.push(unnumbered(JSON.stringify(f.expected)));
    if (f.got !== undefined) side.got.push(unnumbered(JSON.stringify(f.got)));
  }
  const same = (a: string[], b: string[]) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());
  return [...sides].filter(([, { expected, got }]) => !same(expected, got)).map(([path]) => path);
}

/** Without the numbers of alike objects (`<… #2>`) and uids (each run has its own). */
function unnumbered(s: string): string {
  return s.replace(/ #\d+>/g, ' #>').replace(/"uid":"[^"]*"/g, '"uid":""');
}
