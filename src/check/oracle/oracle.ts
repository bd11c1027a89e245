import type { KubeObject } from '../../shared/k8s.ts';
import { diffEndStates, type DiffNames, type ObjectDiff } from './endStateDiff.ts';
import { byGenerateName, identify, kindOf, type GeneratedPrefix, type Identified } from './identity.ts';
import { learnMasks, type Masks } from './masks.ts';
import { canonicalNames } from './canonicalNames.ts';
import { canonicalUids } from './canonicalUids.ts';
import { brokenTies, learnTies, type Tie } from './sharedValues.ts';

// The oracle: learns from the reference runs what a correct run of this controller and scenario
// ends with and what varies between such runs, then judges each perturbed run's end state.
// A controller may also make up names itself (`web-` plus a random suffix, without generateName):
// names that differ between references only in their last dash-separated part are treated as
// generated from what comes before it.

export class Oracle {
  readonly expected: Identified;
  readonly masks: Masks;
  /** Fields that hold one made-up value in every reference run (two secrets' CA). */
  private readonly ties: readonly Tie[];
  private readonly generated: GeneratedPrefix;
  /** The expected objects with their generated names replaced by identities: what runs are compared on. */
  private readonly comparable: Identified;

  private constructor(expected: Identified, masks: Masks, ties: readonly Tie[], generated: GeneratedPrefix) {
    this.expected = expected;
    this.masks = masks;
    this.ties = ties;
    this.generated = generated;
    this.comparable = comparable(expected, generated);
  }

  /** From the end states of one or more reference runs (the first is what a run is held to). */
  static learn(references: readonly (readonly KubeObject[])[]): Oracle {
    if (references.length === 0) throw new Error('the oracle needs a reference run');
    const generated = learnGeneratedNames(references);
    const identified = references.map((r) => identify(r, generated));
    const comparables = identified.map((i) => comparable(i, generated));
    const masks = learnMasks(comparables);
    return new Oracle(identified[0]!, masks, learnTies(comparables, masks), generated);
  }

  /** How the end state differs from the reference's; the objects in the answer are as the runs had them. */
  judge(endState: readonly KubeObject[]): ObjectDiff[] {
    const got = identify(endState, this.generated);
    const gotComparable = comparable(got, this.generated);
    const diffs = diffEndStates(this.comparable, gotComparable, this.masks);
    for (const [id, fields] of brokenTies(this.ties, gotComparable)) {
      const d = diffs.find((x) => x.id === id);
      if (d?.change === 'changed') d.fields.push(...fields);
      else if (!d) diffs.push({ id, change: 'changed', expected: this.comparable.get(id)!, got: gotComparable.get(id)!, fields });
    }
    return diffs.map((d) => {
      if (d.change === 'missing') return { ...d, expected: this.expected.get(d.id)! };
      if (d.change === 'extra') return { ...d, got: got.get(d.id)! };
      return { ...d, expected: this.expected.get(d.id)!, got: got.get(d.id)! };
    });
  }

  /** For a person reading a diff of `endState`: the name each identity had in the reference run and in `endState`. */
  names(endState: readonly KubeObject[]): DiffNames {
    const named = (objects: Identified) => new Map([...objects].map(([id, o]) => [id, o.metadata.name ?? '']));
    return { expected: named(this.expected), got: named(identify(endState, this.generated)) };
  }

  /** The name plans give an object: its name, or its generated name's prefix and `*`. */
  pointName(object: KubeObject): string {
    const prefix = this.generated(object);
    return prefix === undefined ? (object.metadata.name ?? '') : `${prefix}*`;
  }

  /** The identity an object of a run is known by (for matching a finding's objects to reconciles). */
  identityOf(endState: readonly KubeObject[], object: KubeObject): string | undefined {
    for (const [id, o] of identify(endState, this.generated)) if (o === object) return id;
    return undefined;
  }
}

/** What runs are compared on: generated names and uids replaced by the identities of what they name. */
function comparable(objects: Identified, generated: GeneratedPrefix): Identified {
  return canonicalUids(canonicalNames(objects, generated));
}

/** `web-7xk2q` → `web-`: the name without its last dash-separated part. */
function namePrefix(name: string): string | undefined {
  const at = name.lastIndexOf('-');
  return at > 0 ? name.slice(0, at + 1) : undefined;
}

function learnGeneratedNames(references: readonly (readonly KubeObject[])[]): GeneratedPrefix {
  const where = (o: KubeObject) => `${kindOf(o)} ${o.metadata.namespace ?? ''}`;
  const names = references.map((r) => new Set(r.map((o) => `${where(o)}/${o.metadata.name ?? ''}`)));
  const varying = new Set<string>();
  references.forEach((run, i) => {
    for (const o of run) {
      if (byGenerateName(o) !== undefined) continue;
      const name = o.metadata.name ?? '';
      const prefix = namePrefix(name);
      if (!prefix) continue;
      const key = `${where(o)}/${name}`;
      // Missing from another reference, which has a name of the same kind, namespace and prefix.
      const elsewhere = names.some((set, j) => j !== i && !set.has(key) && references[j]!.some((p) => where(p) === where(o) && namePrefix(p.metadata.name ?? '') === prefix));
      if (elsewhere) varying.add(`${where(o)}/${prefix}`);
    }
  });
  return (o) => {
    const fromGenerateName = byGenerateName(o);
    if (fromGenerateName !== undefined) return fromGenerateName;
    const prefix = namePrefix(o.metadata.name ?? '');
    return prefix && varying.has(`${where(o)}/${prefix}`) ? prefix : undefined;
  };
}
