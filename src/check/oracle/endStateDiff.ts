import type { KubeObject } from '../../shared/k8s.ts';
import { fieldDifferences, type FieldDifference } from './fieldDiff.ts';
import { kindOf, type Identified } from './identity.ts';
import { isMasked, type Masks } from './masks.ts';

// The oracle's verdict on one perturbed run: the objects whose end state is not the reference's,
// after what the references showed to vary is set aside.

export type ObjectDiff =
  | { id: string; change: 'missing'; expected: KubeObject }
  | { id: string; change: 'extra'; got: KubeObject }
  | { id: string; change: 'changed'; expected: KubeObject; got: KubeObject; fields: FieldDifference[] };

export function diffEndStates(expected: Identified, got: Identified, masks: Masks): ObjectDiff[] {
  const diffs: ObjectDiff[] = [];
  for (const id of [...new Set([...expected.keys(), ...got.keys()])].sort()) {
    const e = expected.get(id);
    const g = got.get(id);
    if (masks.unstableObjects.has(id)) continue;
    if (e && !g) diffs.push({ id, change: 'missing', expected: e });
    else if (!e && g) diffs.push({ id, change: 'extra', got: g });
    else if (e && g) {
      const fields = fieldDifferences(e, g).filter((d) => !isMasked(masks, id, d.path, d.expected, d.got));
      if (fields.length) diffs.push({ id, change: 'changed', expected: e, got: g, fields });
    }
  }
  return diffs;
}

/**
 * The real names behind identities, in the reference run (`expected`) and in the judged run
 * (`got`): a diff is computed on identities (`<apps/Deployment default/web-* of …>`) but read with
 * the names the objects had.
 */
export interface DiffNames {
  expected: ReadonlyMap<string, string>;
  got: ReadonlyMap<string, string>;
}

const NO_NAMES: DiffNames = { expected: new Map(), got: new Map() };

/** A diff as lines a person reads (`- ` expected, `+ ` got), for a finding's paragraph and its report. */
export function renderDiff(diffs: readonly ObjectDiff[], names: DiffNames = NO_NAMES): string {
  const lines: string[] = [];
  const expectedNames = nameReplacer(names.expected);
  const gotNames = nameReplacer(names.got);
  const value = (v: unknown, named: (s: string) => string) => (v === undefined ? '(absent)' : named(JSON.stringify(v)));
  for (const d of byOwnerDepth(diffs)) {
    if (d.change === 'missing') lines.push(`- ${objectTitle(d.expected)} (expected, missing)`);
    else if (d.change === 'extra') lines.push(`+ ${objectTitle(d.got)} (not expected)`);
    else {
      lines.push(`~ ${objectTitle(d.got)}`);
      for (const f of d.fields) {
        lines.push(`    ${gotNames(expectedNames(f.path))}`, `      - ${value(f.expected, expectedNames)}`, `      + ${value(f.got, gotNames)}`);
      }
    }
  }
  return lines.join('\n');
}

/** Owners before what they own (a Deployment before its ReplicaSets and Pods): an identity names its owners. */
function byOwnerDepth(diffs: readonly ObjectDiff[]): ObjectDiff[] {
  const depth = (d: ObjectDiff) => d.id.split(' of ').length;
  return [...diffs].sort((a, b) => depth(a) - depth(b));
}

/** `apps/Deployment default/web-x7k2p`: the object as the run had it. */
export function objectTitle(o: KubeObject): string {
  return `${kindOf(o)} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name ?? ''}`;
}

/** Replaces each `<identity>` in a string by the name it stands for (the longest first: identities nest). */
function nameReplacer(names: ReadonlyMap<string, string>): (s: string) => string {
  const tokens = [...names].filter(([id, name]) => name !== '' && id !== name).map(([id, name]) => [`<${id}>`, name] as const);
  tokens.sort((a, b) => b[0].length - a[0].length);
  return (s) => {
    if (!s.includes('<')) return s;
    for (const [token, name] of tokens) if (s.includes(token)) s = s.replaceAll(token, name);
    return s;
  };
}
