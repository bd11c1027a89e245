import type { CheckEvent, CheckReport } from './checkController.ts';
import type { Finding } from './findings/finding.ts';
import { simpler } from './findings/attribution.ts';
import { describePlan, type Plan } from './plans/plan.ts';
import { encodePlan } from './plans/planCodec.ts';
import type { FailingKey } from './run/failingKeys.ts';

// How a check speaks to a person, wherever it runs (the CLI prints these lines, VS Code writes them
// to its output channel): a line per run as it finishes, the summary, and the command that replays
// one run.

const NOTHING_TO_PERTURB = ': in its unperturbed runs the controller wrote nothing and nothing it watches changed, so there is nothing to perturb: give the scenario objects or steps that make it act';

/** What the command line said, as a replay command repeats it. */
export interface CheckCommandLine {
  program: string;
  scenario: string;
  workloads: boolean;
  as?: string | undefined;
  /** A Go program's own arguments (after `--`). */
  programArgs: string[];
  /** Variables the program was checked with that a replay needs too (its manager Deployment's env, what its code reads); secrets are named, not printed. */
  env?: Record<string, string>;
}

/**
 * A check's progress, a line per event (undefined for events nobody needs to read), findings
 * numbered as they are announced: a run that ends as an earlier finding did says which, and the
 * end says which announced finding is which of the report's.
 */
export function checkProgress(): (e: CheckEvent) => string | undefined {
  const numbered: Finding[] = [];
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return (e) => {
    switch (e.type) {
      case 'built':
        return undefined;
      case 'finding':
        numbered.push(e.finding);
        return undefined;
      case 'reference':
        return `reference run ${e.run}: ${e.quiet ? `quiet after ${s(e.durationMs)}` : `not quiet after ${s(e.durationMs)}`}, ${e.reconciles} reconciles, ${e.writes} writes${stillFailing(e.failing)}`;
      case 'planned':
        // A controller that only waits (a schedule a minute off, a poll) gives the plans no point: a
        // clean check of it proves nothing, and its author should know.
        return `${e.plans} perturbed run(s) planned${e.varying ? ` (${e.varying} field(s) or object(s) vary between unperturbed runs and are not compared${varyingNamed(e.varying, e.varyingExamples)})` : ''}${e.plans === 0 ? NOTHING_TO_PERTURB : ''}`;
      case 'run': {
        const n = e.finding ? numbered.indexOf(e.finding) + 1 : 0;
        const verdict = e.error ? `could not be done (${e.error})` : e.missed ? 'its point did not come in this run' : e.finding ? `FINDING ${n} (${e.finding.class})${again(e.finding, e.own)}` : 'same end state';
        return `[${e.done}/${e.planned}] ${describePlan(e.plan)}: ${verdict} (${s(e.durationMs)})`;
      }
      case 'attributed':
        return renumbered(numbered, e.announced, e.findings);
    }
  };
}

/** The first of what varies, so an author can tell a clock or a random name from a race of their own. */
function varyingNamed(count: number, examples: readonly string[] | undefined): string {
  if (!examples?.length) return '';
  return `: ${examples.join(', ')}${count > examples.length ? `, ${count - examples.length} more` : ''}`;
}

/**
 * Keys left failing at the end of a reference run: no finding can come of them (every run ends the
 * same), so without this line a controller whose every reconcile fails would pass in silence.
 */
function stillFailing(failing: readonly FailingKey[]): string {
  if (failing.length === 0) return '';
  const shown = failing.slice(0, 3).map((f) => `\n  ${f.request}: ${f.error}`);
  const more = failing.length > shown.length ? `\n  … and ${failing.length - shown.length} more` : '';
  return `\nwarning: ${failing.length} key(s) still failing when the run went quiet (their last reconcile returned an error; the end state compared is what they left):${shown.join('')}${more}`;
}

/** What a run that ends as an announced finding did adds to it: nothing, if it is that finding's own run. */
function again(f: Finding, own: Finding | undefined): string {
  if (!own || own === f) return '';
  if (own.class === f.class) return ', as an earlier run';
  return simpler(f, own) ? ', as an earlier run: the same bug, which that simpler perturbation explains' : ', as an earlier run: the same bug, which this simpler perturbation explains (the end says so)';
}

/**
 * Runs finish in their own order, so a finding announced early may be reproduced later by a
 * simpler perturbation, which explains it: the report numbers the findings as they are in the end,
 * and says which announced finding is which. Undefined when nothing moved.
 */
function renumbered(numbered: readonly Finding[], announced: readonly Finding[], findings: readonly Finding[]): string | undefined {
  const moves = numbered.flatMap((f, i) => {
    const now = announced[i] ?? f;
    const n = findings.indexOf(now) + 1;
    if (n === i + 1 && now.class === f.class && now.plan === f.plan) return [];
    const how = now.plan === f.plan ? '' : ` (${describePlan(now.plan)} reproduces it: the simplest perturbation that does)`;
    return [`  FINDING ${i + 1} (${f.class}) above is FINDING ${n} (${now.class}) below${how}`];
  });
  return moves.length ? ['the same bug reproduced by several perturbations is one finding:', ...moves].join('\n') : undefined;
}

/** Perturbations were planned and every one was left out (budget or cancel): nothing was checked. */
function noneRan(r: Pick<CheckReport, 'planned' | 'skipped'>): boolean {
  return r.planned > 0 && r.skipped >= r.planned;
}

/** `check: 2 finding(s) (stale-state 1, intermediate-state 1) in 16 runs, 48.2 s`. */
export function describeReport(r: CheckReport): string {
  const byClass = new Map<string, number>();
  for (const f of r.findings) byClass.set(f.class, (byClass.get(f.class) ?? 0) + 1);
  const classes = [...byClass].map(([c, n]) => `${c} ${n}`).join(', ');
  const skipped = r.skipped ? `; ${r.skipped} planned perturbation(s) left out ${r.cancelled ? 'when it was cancelled' : 'by the budget'}` : '';
  const nothing = r.planned === 0 ? '; nothing was perturbed, so nothing was checked' : noneRan(r) ? '; no perturbed run fitted, so nothing was checked: give --budget more time' : '';
  return `check: ${r.findings.length} finding(s)${classes ? ` (${classes})` : ''} in ${r.runs} runs, ${(r.durationMs / 1000).toFixed(1)} s${skipped}${nothing}`;
}

/**
 * The one sentence VS Code shows when a check ends. A check with no perturbation to make (a
 * controller that wrote nothing) found no bug because it looked for none: it says so, as the CLI's
 * planned line does, and does not read as a clean bill.
 */
export function checkVerdict(name: string, r: Pick<CheckReport, 'findings' | 'runs' | 'planned' | 'skipped' | 'cancelled'>): { warning: boolean; text: string } {
  const found = r.findings.length;
  if (found) return { warning: false, text: `Controller Lab found ${found} bug(s) in ${name}: see Check Findings, and replay one in the debugger.` };
  if (r.planned === 0) return { warning: true, text: `Controller Lab had nothing to check in ${name}${NOTHING_TO_PERTURB}.` };
  if (noneRan(r)) return { warning: true, text: `Controller Lab checked nothing in ${name}: none of its ${r.planned} perturbed runs fitted ${r.cancelled ? 'before it was cancelled' : 'in the time budget (`controller-lab check --budget` gives more)'}.` };
  return { warning: false, text: `Controller Lab found no bug in ${name} (${r.runs} runs).` };
}

/** The shell command that runs the check of `given` with only `plan`. */
export function replayCommand(given: CheckCommandLine, plan: Plan): string {
  const q = (s: string) => (/^[\w./:@=-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  const words = ['controller-lab', 'check', given.program, '--scenario', given.scenario];
  if (given.workloads) words.push('--workloads');
  if (given.as) words.push('--as', given.as);
  words.push('--plan', encodePlan(plan));
  if (given.programArgs.length) words.push('--', ...given.programArgs);
  const env = Object.entries(given.env ?? {}).map(([k, v]) => `${k}=${holdsSecret(k, v) ? `"\${${k}:?}"` : q(v)} `);
  return env.join('') + words.map(q).join(' ');
}

/**
 * A variable whose name says it holds a credential, or whose value is a URL with a password: a
 * replay command is printed, pasted into issues and kept in report files, so it names the variable
 * (`"${API_TOKEN:?}"`: the shell that replays passes its own, and refuses to run without one) and
 * never prints its value.
 */
function holdsSecret(name: string, value: string): boolean {
  return /TOKEN|SECRET|PASSW|PASSPHRASE|CREDENTIAL|PRIVATE|API_?KEY|ACCESS_?KEY|AUTH|(^|_)KEY($|_)/i.test(name) || /^[a-z][\w+.-]*:\/\/[^/@\s]*:[^/@\s]*@/i.test(value);
}
