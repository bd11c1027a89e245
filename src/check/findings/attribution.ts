import type { Plan } from '../plans/plan.ts';
import type { Finding, Reproduction } from './finding.ts';
import { rootsOf, symptomsOf } from './symptoms.ts';

// One bug, one finding. Several perturbations often end a run the same way — a crash and a stale
// restart at the same write, a stale cache and a relist (which also delivers state late), a write
// with nothing to do that also leaves other values behind — and a bug is best explained by the
// simplest perturbation that reproduces it, as Sieve reasons. So runs are taken simplest first; a
// run whose every symptom (an object missing, unexpected, or a field of it with other values) an
// earlier, simpler one already showed is that finding again, listed in it as reproduced by this
// perturbation too; so is a run of the same class that shows every symptom of an earlier finding
// and more (the same bug reached at an earlier point of its reconcile), and one of the same class
// whose symptoms, on other objects, the same lines of the controller's code wrote (the same bug
// under another parent). A run with a symptom
// nothing simpler showed, of another class, stays a finding of its own, so a second bug with
// symptoms of its own is a second finding.

/** The simplest first: reconciling again changes nothing of what the controller sees; a crash loses only its memory; the rest show it an old, or an incomplete, history; a crash at another's change comes last. */
const SIMPLICITY: Record<Plan['kind'], number> = {
  'resync-when-quiet': 0,
  'crash-after-write': 1,
  'stale-after-write': 2,
  'stale-restart-after-write': 3,
  'coalesce-change': 4,
  'relist-across-changes': 5,
  // Last: a restart at someone else's change also loses what a crash, a stale cache or a missed
  // state loses, so it keeps only what none of them explains (memory the cluster does not hold).
  'crash-after-change': 6,
  // After it: a stale restart at someone else's change is that crash and a look back in time as
  // well, so it keeps only what the crash alone does not explain (acting on the object as it was).
  'stale-restart-after-change': 7,
};

/** Whether `a`'s perturbation is simpler than `b`'s: it explains what both reproduce. */
export function simpler(a: Finding, b: Finding): boolean {
  return simplicity(a) < simplicity(b);
}

/** A crash run whose unexpected objects one start of the controller made alone explains them no better than a stale cache. */
function simplicity(f: Finding): number {
  return f.madeByOneStart ? SIMPLICITY['stale-after-write'] + 0.5 : SIMPLICITY[f.plan.kind];
}

interface Group {
  finding: Finding;
  symptoms: Set<string>;
  /** Its symptoms with objects named by the code that wrote them (symptoms.ts). */
  roots: Set<string> | undefined;
  /** The first run (by the order runs were judged) that reproduced it. */
  first: number;
  also: Finding[];
}

/** A check's findings, each bug once, and which of them each run's finding is reported within. */
export interface Attribution {
  /** In the order they were first reproduced; each lists the other runs that reproduced it (`alsoReproducedBy`). */
  findings: Finding[];
  within(run: Finding): Finding | undefined;
}

/** From the findings of a check's runs, in the order the runs were judged. */
export function attribute(runs: readonly Finding[]): Attribution {
  const groups = groupsOf(runs);
  const findings = groups.map(({ finding, also }) => (also.length ? { ...finding, alsoReproducedBy: also.map(reproduction) } : finding));
  return {
    findings,
    within: (run) => {
      const at = groups.findIndex((g) => g.finding === run || g.also.includes(run));
      return at < 0 ? undefined : findings[at];
    },
  };
}

function groupsOf(runs: readonly Finding[]): Group[] {
  const simplestFirst = runs.map((finding, at) => ({ finding, at })).sort((a, b) => simplicity(a.finding) - simplicity(b.finding) || a.at - b.at);
  const groups: Group[] = [];
  for (const { finding, at } of simplestFirst) {
    const symptoms = symptomsOf(finding);
    const roots = rootsOf(finding);
    const group = sameAs(groups, finding, symptoms) ?? explainedBy(groups, symptoms) ?? sameRoots(groups, finding, roots);
    const widened = group ? undefined : widens(groups, finding, symptoms);
    if (group) {
      group.also.push(finding);
      group.first = Math.min(group.first, at);
      // Its symptoms on other objects: later runs showing them are this bug too.
      for (const s of symptoms) group.symptoms.add(s);
    } else if (widened) {
      // As simple a perturbation that shows more of the bug tells it best: it leads, the other is listed.
      const leads = simplicity(finding) === simplicity(widened.finding);
      widened.also.push(leads ? widened.finding : finding);
      if (leads) {
        widened.finding = finding;
        widened.roots = roots;
      }
      widened.symptoms = symptoms;
      widened.first = Math.min(widened.first, at);
    } else groups.push({ finding, symptoms, roots, first: at, also: [] });
  }
  return groups.sort((a, b) => a.first - b.first);
}

/** A finding with the very same symptoms (or, with none to compare, of the same class and diff). */
function sameAs(groups: readonly Group[], f: Finding, symptoms: ReadonlySet<string>): Group | undefined {
  if (symptoms.size === 0) return groups.find((g) => g.symptoms.size === 0 && g.finding.class === f.class && g.finding.diff === f.diff);
  return groups.find((g) => g.symptoms.size === symptoms.size && [...symptoms].every((s) => g.symptoms.has(s)));
}

/** When the findings so far show every symptom between them: the one that shares most of them. */
function explainedBy(groups: readonly Group[], symptoms: ReadonlySet<string>): Group | undefined {
  if (symptoms.size === 0) return undefined;
  const shared = (g: Group) => [...symptoms].filter((s) => g.symptoms.has(s)).length;
  const unexplained = [...symptoms].filter((s) => !groups.some((g) => g.symptoms.has(s)));
  if (unexplained.length) return undefined;
  return groups.reduce<Group | undefined>((best, g) => (shared(g) > (best ? shared(best) : 0) ? g : best), undefined);
}

/**
 * A finding of the same class whose every symptom this run shows too, and more: the same bug
 * reached at another point. Killed after the first of a reconcile's writes, the controller leaves
 * all the rest undone; after the second, all but that: one root, the same fields, two runs. So is
 * a crash at someone else's change that ends as the crash after the controller's own write did,
 * and a little more.
 */
function widens(groups: readonly Group[], f: Finding, symptoms: ReadonlySet<string>): Group | undefined {
  if (symptoms.size === 0) return undefined;
  return groups.find((g) => g.finding.class === f.class && g.symptoms.size > 0 && [...g.symptoms].every((s) => symptoms.has(s)));
}

/** A finding of the same class whose symptoms are this run's on other objects, written by the same lines of the controller's code. */
function sameRoots(groups: readonly Group[], f: Finding, roots: ReadonlySet<string> | undefined): Group | undefined {
  if (!roots) return undefined;
  return groups.find((g) => g.finding.class === f.class && g.roots?.size === roots.size && [...roots].every((r) => g.roots!.has(r)));
}

function reproduction(f: Finding): Reproduction {
  return { class: f.class, perturbation: f.perturbation, plan: f.plan, replay: f.replay };
}
