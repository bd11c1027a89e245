import type { Finding } from './finding.ts';

// What a finding shows, as symptoms that can be compared between runs whatever the values:
// `extra ConfigMap default/web-*`, `missing …`, `changed ConfigMap default/web .data.stamp`.
// Two runs of one bug rarely end with the same values — a stale cache that lasts longer makes more
// extra children than a crash does — but they show the same symptoms. An object is named by its
// kind, namespace and name (a generated one by its prefix): not by which of several alike objects
// it is (`#2`), which only says in which order the run happened to create them.

export function symptomsOf(f: Finding): Set<string> {
  const out = new Set<string>();
  for (const o of f.objects) {
    const object = objectOf(o.id);
    if (o.change !== 'changed') {
      out.add(`${o.change} ${object}`);
      continue;
    }
    for (const field of o.fields ?? []) if (!onlyRenumbered(field.expected, field.got)) out.add(`changed ${object} ${field.path}`);
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

/** A value that names another of several alike objects (`<… #1>` against `<… #2>`) and is otherwise the same. */
function onlyRenumbered(expected: unknown, got: unknown): boolean {
  const plain = (v: unknown) => JSON.stringify(v ?? null).replace(/ #\d+>/g, ' #>');
  return expected !== undefined && got !== undefined && plain(expected) !== JSON.stringify(expected ?? null) && plain(expected) === plain(got);
}
