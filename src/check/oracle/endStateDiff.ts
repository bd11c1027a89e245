import type { KubeObject } from '../../shared/k8s.ts';
import { fieldDifferences, type FieldDifference } from './fieldDiff.ts';
import type { Identified } from './identity.ts';
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

/** A diff as lines a person reads (`- ` expected, `+ ` got), for a finding's paragraph and its report. */
export function renderDiff(diffs: readonly ObjectDiff[]): string {
  const lines: string[] = [];
  const value = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v));
  for (const d of diffs) {
    if (d.change === 'missing') lines.push(`- ${d.id} (expected, missing)`);
    else if (d.change === 'extra') lines.push(`+ ${d.id} (not expected)`);
    else {
      lines.push(`~ ${d.id}`);
      for (const f of d.fields) {
        lines.push(`    ${f.path}`, `      - ${value(f.expected)}`, `      + ${value(f.got)}`);
      }
    }
  }
  return lines.join('\n');
}
