import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Plan } from '../../src/check/index.ts';
import { check, replay, transcript } from './checkCli.ts';

// The planted-bug controllers (test/check/ts, test/check/go): each buggy one is found, with the
// class its bug belongs to and no other (each has one bug: a finding of another class is a false
// alarm, or the bug attributed to the wrong perturbation), and its finding's replay command finds it
// again; each correct twin raises nothing, check after check. A finding on a correct twin is a
// false alarm: check's bug. Both are checked with every plan: a bug is attributed to the simplest
// perturbation that reproduces it only once every perturbation has run.

export interface Planted {
  /** linker, replicator, historian, stamper, looper, registrar, binder, resizer, janitor, templater, mirror, guard, keypair, reaper, decommissioner, restarter: the folder and the scenario's name. */
  name: string;
  class: 'intermediate-state' | 'stale-state' | 'unobserved-state' | 'not-idempotent';
  /** Run the replay of its finding too (a few are enough: replays are the same code for all). */
  replay?: boolean;
  /** The one perturbation that finds it, when every other must explain none of it. */
  plan?: Plan['kind'];
  /**
   * Perturbations that reproduce it too, as another class, when their timing lets them: a stale
   * restart is also a restart, and check explains a bug by the simplest perturbation that shows it.
   */
  orFoundBy?: string[];
  /** Written in this language only. */
  only?: string;
  /** The correct twin, when it is not the folder's own (a pattern the correct-patterns test checks too). */
  twin?: string;
}

export const PLANTED: readonly Planted[] = [
  { name: 'linker', class: 'intermediate-state' },
  { name: 'replicator', class: 'stale-state' },
  { name: 'historian', class: 'unobserved-state' },
  { name: 'stamper', class: 'not-idempotent' },
  { name: 'looper', class: 'not-idempotent' },
  // Its memory is lost on any restart: a stale restart whose lag covers the hostname's change leaves
  // the old record too, and is the simpler explanation when it does. Its memory also trusts the
  // cache of records: when its Services relist before its ConfigMaps do (client-go's jittered
  // relist), it forgets the old hostname while the old record is not yet in its cache.
  { name: 'registrar', class: 'intermediate-state', plan: 'crash-after-change', orFoundBy: ['stale-restart-after-write', 'stale-restart-after-change', 'relist-across-changes'], only: 'TypeScript', twin: 'test/check/ts/patterns/registrar.ts' },
  // A Secret deleted and made again under the same name: an object with another uid.
  { name: 'binder', class: 'unobserved-state', only: 'Go' },
  // A resize decided from the set it remakes first: a restart between the two loses the expansion.
  { name: 'resizer', class: 'intermediate-state', only: 'Go' },
  // A worker's scratch removed only when it is seen terminating: a deletionTimestamp never observed leaves it.
  { name: 'janitor', class: 'unobserved-state', only: 'Go' },
  // A child copied from its parent only when missing: made from a stale view of the parent's change.
  // The same trust in a cached child shows when the child's deletion is seen only after the
  // parent's change: the child is taken as there, and never made again (the fixed one's update
  // fails on the deleted child and retries).
  { name: 'templater', class: 'stale-state', plan: 'stale-restart-after-change', orFoundBy: ['coalesce-change'], only: 'TypeScript' },
  // A record keyed by its Service's name: the Service deleted and made again under it, the deletion unseen.
  { name: 'mirror', class: 'unobserved-state', only: 'TypeScript' },
  // Its own last write remembered in memory, compared with a cache that lags it: its own update taken for an edit by hand.
  { name: 'guard', class: 'stale-state', plan: 'stale-after-write', only: 'TypeScript' },
  // Two TLS secrets issued by one CA, the second from a new CA after a restart between them: the
  // CA differs from run to run, so only that the two agree tells.
  { name: 'keypair', class: 'intermediate-state', orFoundBy: ['stale-restart-after-write'], only: 'Go' },
  // A volume deleted by name by a finalizer, found only by time travel: restarted after the parent
  // was made again, against a view of the old one terminating. Its correct twin once raised a false
  // alarm: a restart or a held deletion made it finalize late, the scenario's create of the name
  // still held failed, and the run ended without the parent.
  { name: 'reaper', class: 'stale-state', plan: 'stale-restart-after-write', only: 'Go' },
  // A node taken away only on an update event whose old and new objects differ by one: a step
  // down unobserved (or a restart across it, which shows no old object) leaves the node for good.
  { name: 'decommissioner', class: 'unobserved-state', orFoundBy: ['crash-after-change', 'stale-restart-after-change'], only: 'Go' },
  // Members remade in a rollout decided from a record written last: a restart halfway remakes the
  // first member again. The end state matches the reference's but for uids: only the run's
  // deletions, against the reference runs' own, show it.
  { name: 'restarter', class: 'intermediate-state', only: 'Go' },
];

/** Checks of a correct twin, each of every plan: a false alarm that comes and goes must show. */
const CORRECT_CHECKS = 2;

/** The tests for one language: `program(name, 'buggy' | 'correct')` is the path check takes. */
export function plantedBugTests(language: string, program: (name: string, variant: 'buggy' | 'correct') => string, replayed: readonly string[]): void {
  for (const planted of PLANTED.filter((p) => (p.only ?? language) === language)) {
    const scenario = `test/check/scenarios/${planted.name}.yaml`;

    it(`${language} ${planted.name}: its planted bug is found as ${planted.class}${planted.orFoundBy ? ` (or by ${planted.orFoundBy.join(', ')})` : ''}, and as nothing else${replayed.includes(planted.name) ? ', and its replay finds it again' : ''}`, async () => {
      const r = await check(program(planted.name, 'buggy'), scenario);
      assert.equal(r.code, 1, `check exits 1 on a controller with a bug${transcript(r)}`);
      assert.equal(r.skipped, 0, `every plan ran${transcript(r)}`);
      const finding = r.findings[0];
      assert.ok(finding, `a finding${transcript(r)}`);
      const expected = (f: (typeof r.findings)[number]): boolean => f.class === planted.class || (planted.orFoundBy ?? []).includes(f.plan.kind);
      assert.ok(r.findings.every(expected), `every finding is ${planted.class}${planted.orFoundBy ? ` or by ${planted.orFoundBy.join(', ')}` : ''}: ${r.findings.map((f) => `${f.class} (${f.plan.kind})`).join(', ')}${transcript(r)}`);
      const by: string[] = [...(planted.plan ? [planted.plan] : []), ...(planted.orFoundBy ?? [])];
      if (planted.plan) assert.ok(r.findings.every((f) => by.includes(f.plan.kind)), `found by ${by.join(' or ')} alone: ${r.findings.map((f) => f.plan.kind).join(', ')}${transcript(r)}`);
      if (!replayed.includes(planted.name)) return;
      const again = await replay(finding.replay);
      assert.equal(again.code, 1, `the replay exits 1${transcript(again)}`);
      assert.match(again.stdout, new RegExp(`FINDING 1 \\(${finding.class}\\)`), `the replay finds it again${transcript(again)}`);
    });

    it(`${language} ${planted.name}, corrected: no finding in ${CORRECT_CHECKS} checks of every plan`, async () => {
      for (let i = 1; i <= CORRECT_CHECKS; i++) {
        const r = await check(planted.twin ?? program(planted.name, 'correct'), scenario);
        assert.equal(r.findings.length, 0, `check ${i}: ${r.findings.map((f) => f.summary).join('\n')}${transcript(r)}`);
        assert.equal(r.code, 0, `check ${i} exits 0${transcript(r)}`);
        assert.equal(r.skipped, 0, `check ${i} ran every plan${transcript(r)}`);
      }
    });
  }
}
