// Correct controllers written in patterns common in the wild, each of which once made check raise
// a false alarm or could: a resourceVersion recorded in an annotation (its number depends on how
// many writes came first), children with generated names whose surplus is removed once the cache
// shows it (eventually right), copies made again after a restart (AlreadyExists is fine); and
// more below. Each must raise nothing with every plan run.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { check, transcript } from './checkCli.ts';

interface Options {
  /** More arguments to check (`--workloads`). */
  args?: string[];
  /** No run may take this long: a wait check should have spared the run. */
  slowestRunSeconds?: number;
}

const CASES: [program: string, scenario: string, options?: Options][] = [
  ['./test/check/go/patterns/versionrecorder', 'test/check/scenarios/versionrecorder.yaml'],
  ['./test/check/go/patterns/selfhealing', 'test/check/scenarios/selfhealing.yaml'],
  ['test/check/ts/patterns/copier.ts', 'test/check/scenarios/copier.yaml'],
  // Written by someone who had not seen check: a finalizer cleaning up in another namespace with
  // CreateOrPatch and status conditions, a field index behind a map func, server-side apply (whose
  // writes went unrecorded), a TypeScript finalizer with records mapped back by label.
  ['./test/check/go/patterns/tenant', 'test/check/scenarios/tenant.yaml'],
  ['./test/check/go/patterns/reloader', 'test/check/scenarios/reloader.yaml'],
  ['./test/check/go/patterns/bundler', 'test/check/scenarios/bundler.yaml'],
  ['test/check/ts/patterns/registrar.ts', 'test/check/scenarios/registrar.yaml'],
  // Leader election on: every restart waited out the killed leader's Lease (15 s), and a crash
  // right after a Lease write was a run that never went quiet.
  ['./test/check/go/patterns/leader', 'test/check/scenarios/leader.yaml', { slowestRunSeconds: 10 }],
  // Jobs under --workloads: a run ended while a Job's Pod happened to be still running (its status
  // and the controller's condition then differed from run to run), and a Job's controller-uid
  // label, which holds its uid, made the same Job and its Pods other objects in another run.
  ['./test/check/go/patterns/jobrunner', 'test/check/scenarios/jobrunner.yaml', { args: ['--workloads'] }],
  // Polling every 250 ms (RequeueAfter) without a write: a reference run waited out its 120 s and
  // called the controller one that never went quiet (a key always due, a reconcile always ending).
  ['./test/check/go/patterns/poller', 'test/check/scenarios/poller.yaml', { slowestRunSeconds: 15 }],
  // As a tutorial writes it: CreateOrUpdate setting a Secret's stringData (which the API server
  // folds into data, so each reconcile sends an update that changes nothing) and a server-side
  // apply of an annotation, given up by applying none.
  ['./test/check/go/patterns/secretsync', 'test/check/scenarios/secretsync.yaml'],
  // Server-side apply the older way: a typed Deployment, zero values and all (`status: {}`,
  // `creationTimestamp: null`), sent with Patch(client.Apply) while the workload controllers move
  // its status on.
  ['./test/check/go/patterns/applier', 'test/check/scenarios/applier.yaml', { args: ['--workloads'] }],
  // Counts aggregated into the parent's status, the parent's events behind GenerationChangedPredicate:
  // a status write whose event was held made its next writes conflict, and the run ended while the
  // retry that would show it its own write waited on its backoff (the released event, a status
  // change, passes no predicate).
  ['test/check/ts/patterns/teamcounts.ts', 'test/check/scenarios/teamcounts.yaml'],
  // A map func that takes 700 ms, as a loaded machine's controller takes in an event late: runs
  // ended 400 ms after the watch had sent the Secret's change, before the handler had mapped it.
  ['./test/check/go/patterns/slowmapper', 'test/check/scenarios/slowmapper.yaml'],
  // A kind read only on the way to work not yet done (the accounts Secret, whose informer the
  // cache starts on that Get): killed after its last write, the process started again had nothing
  // to do, never watched it, and the run waited for that watch until its deadline (never quiet).
  // That informer's watch-list, opened after a coalesced change's rule was armed, had the Secret's
  // initial ADDED held: its cache synced without it, every reconcile failed, and the run waited 20 s
  // for a change that never came.
  ['./test/check/go/patterns/registry', 'test/check/scenarios/registry.yaml', { slowestRunSeconds: 15 }],
];

for (const [program, scenario, { args = [], slowestRunSeconds } = {}] of CASES) {
  it(`${program}${args.length ? ` ${args.join(' ')}` : ''}: no finding, every plan run${slowestRunSeconds ? `, none slower than ${slowestRunSeconds} s` : ''}`, async () => {
    const r = await check(program, scenario, args);
    assert.equal(r.findings.length, 0, `${r.findings.map((f) => f.summary).join('\n')}${transcript(r)}`);
    assert.equal(r.code, 0, transcript(r));
    assert.equal(r.skipped, 0, transcript(r));
    if (slowestRunSeconds) {
      // Progress lines end with the run's time: `[3/29] killed right after …: same end state (1.4 s)`.
      const times = [...r.stdout.matchAll(/^\[\d+\/\d+\] .*\((\d+(?:\.\d+)?) s\)$/gm)].map((m) => Number(m[1]));
      assert.ok(times.length > 0 && Math.max(...times) < slowestRunSeconds, `slowest run ${Math.max(...times)} s${transcript(r)}`);
    }
  });
}
