import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ControllerSession } from '../../../../src/runtime/index.ts';
import type { ControllerWrites } from '../../../../src/check/run/controllerWrites.ts';
import { Quietness, type QuietSubject } from '../../../../src/check/run/quietness.ts';

// When a run is over: not before the controller has caught up with the cluster, however quiet it
// looks; a perturbation still holding something is asked to let go; the scenario jumps only while
// the controller is quiet.

const idleSession = { running: true, inFlight: () => [], queue: { depth: 0, processing: 0, omitted: 0, keys: [] } } as unknown as ControllerSession;
const noWrites = { sinceLastControllerWrite: () => Infinity, longestWriteRun: { object: '', writes: 0 }, newObjectsWithin: () => 0 } as unknown as ControllerWrites;

function subject(over: Partial<QuietSubject>): QuietSubject {
  return { session: () => idleSession, writes: noWrites, caughtUp: () => true, clusterBusy: () => false, awaitingChange: () => false, letGo: () => false, scenarioDone: () => true, jumpScenario: () => {}, scenarioClock: () => Date.now(), polledSinceLastChange: () => false, lastStartOf: () => undefined, ...over };
}

test('a quiet controller that has not caught up does not end the run; the perturbation is asked to let go', async () => {
  let caughtUp = false;
  let asked = 0;
  const q = new Quietness(subject({ caughtUp: () => caughtUp, letGo: (done) => done && (asked++, (caughtUp = true)) }));
  const started = performance.now();
  assert.equal(await q.settle(started + 5000), true);
  assert.equal(asked, 1);
});

test('a controller that never catches up is not quiet at the deadline', async () => {
  const q = new Quietness(subject({ caughtUp: () => false }));
  assert.equal(await q.settle(performance.now() + 900), false);
});

test('a session that has not synced (a restart under way) is not quiet', async () => {
  const q = new Quietness(subject({ session: () => undefined }));
  assert.equal(q.controllerQuiet(0), false);
  assert.equal(await q.settle(performance.now() + 300), false);
});

test('the scenario jumps while the controller is quiet, and the run ends once it is done', async () => {
  let steps = 2;
  const q = new Quietness(subject({ scenarioDone: () => steps === 0, jumpScenario: () => void steps-- }));
  assert.equal(await q.settle(performance.now() + 5000), true);
  assert.equal(steps, 0);
});

test('the scenario does not jump while the controller lags, unless the perturbation waits for the next change', async () => {
  let jumps = 0;
  let awaiting = false;
  const q = new Quietness(subject({ caughtUp: () => false, awaitingChange: () => awaiting, scenarioDone: () => false, jumpScenario: () => void jumps++ }));
  assert.equal(await q.settle(performance.now() + 400), false);
  assert.equal(jumps, 0);
  awaiting = true;
  await q.settle(performance.now() + 400);
  assert.ok(jumps > 0);
});

test('a controller in a write loop (one object written again and again, by it alone) is not quiet, long before the deadline', async () => {
  const looping = { sinceLastControllerWrite: () => 0, longestWriteRun: { object: 'ConfigMap default/a', writes: 40 } } as unknown as ControllerWrites;
  const started = performance.now();
  assert.equal(await new Quietness(subject({ writes: looping })).settle(started + 60_000), false);
  assert.ok(performance.now() - started < 1000);
});

test('a controller whose cluster has work queued is not quiet; one whose cluster only waits (a Pod about to start) is', () => {
  assert.equal(new Quietness(subject({ clusterBusy: () => true })).controllerQuiet(0), false);
  assert.equal(new Quietness(subject({ clusterBusy: (withinMs) => withinMs > 0 })).controllerQuiet(0), true);
  assert.equal(new Quietness(subject({})).controllerQuiet(0), true);
});

test('once the scenario is done, a wait of the cluster about to end is jumped to, not waited for, and the run ends after it', async () => {
  let waiting = true;
  let jumps = 0;
  const q = new Quietness(subject({ clusterBusy: (withinMs) => withinMs > 0 && waiting, jumpScenario: () => void (jumps++, (waiting = false)) }));
  const started = performance.now();
  assert.equal(await q.settle(started + 5000), true);
  assert.equal(jumps, 1);
});

test('a polling controller (its key due again within the quiet wait) is let go of a withheld change once the scenario is done', async () => {
  // It polls for what it has not been shown, so it is never quiet until it is shown it: waiting for
  // it to be quiet first would keep the change withheld until the deadline.
  let caughtUp = false;
  const polling = () => ({ ...idleSession, queue: { depth: 0, processing: 0, omitted: 0, keys: caughtUp ? [] : [{ key: 'default/a', state: 'waiting', readyAt: Date.now() + 500 }] } }) as unknown as ControllerSession;
  const asked: boolean[] = [];
  const q = new Quietness(subject({ session: polling, caughtUp: () => caughtUp, letGo: (done) => (asked.push(done), done && (caughtUp = true)) }));
  assert.equal(await q.settle(performance.now() + 3000), true);
  assert.deepEqual(asked.at(-1), true);
});

test("once the scenario is done, the cluster's own waits within a minute of its clock are jumped to (a Job's Pod running to completion), later ones left", async () => {
  // A Pod finishing 5 s on, then (a CronJob's next schedule) 2 minutes on: the first is jumped to, the second is not.
  let offset = 0;
  const waits = [5_000, 120_000];
  const q = new Quietness(subject({
    scenarioClock: () => 1_000_000 + offset,
    clusterBusy: (withinMs) => waits.length > 0 && waits[0]! - offset <= withinMs,
    jumpScenario: () => void (offset = waits.shift() ?? offset),
  }));
  assert.equal(await q.settle(performance.now() + 5000), true);
  assert.equal(offset, 5_000);
  assert.deepEqual(waits, [120_000]);
});

test('a controller that polls every second (requeueAfter) is quiet once each key it polls was last reconciled after the cluster last changed, writing nothing', async () => {
  const polling = { running: true, inFlight: () => [], queue: { depth: 0, processing: 0, omitted: 0, keys: [{ key: 'default/mirror', state: 'waiting', retries: 0, reason: 'after', readyAt: Date.now() + 1000 }] } } as unknown as ControllerSession;
  let polled = false;
  const q = new Quietness(subject({ session: () => polling, polledSinceLastChange: (key) => key === 'default/mirror' && polled }));
  assert.equal(await q.settle(performance.now() + 600), false);
  polled = true;
  assert.equal(await q.settle(performance.now() + 2000), true);
});

test('a key whose update failed on the view a perturbation held back is retried before the run ends, though its backoff is beyond the quiet wait', async () => {
  // Its status write's event was held, so its next writes met conflicts and its backoff grew; its
  // predicates drop the event of that write once let go: only the retry shows it the cluster as it is.
  let caughtUp = false;
  let retried = false;
  const backingOff = () =>
    ({ ...idleSession, queue: { depth: 0, processing: 0, omitted: 0, keys: retried ? [] : [{ key: 'default/blue', state: 'waiting', retries: 9, reason: 'backoff', readyAt }] } }) as unknown as ControllerSession;
  const readyAt = Date.now() + 2600;
  setTimeout(() => (retried = true), 2600);
  const q = new Quietness(subject({ session: backingOff, caughtUp: () => caughtUp, letGo: (done) => done && (caughtUp = true) }));
  assert.equal(await q.settle(performance.now() + 10_000), true);
  assert.equal(retried, true, 'the run ended before the owed retry');
});

test('a key that failed on a view the perturbation let go of by its own timer is retried before the run ends, though its backoff is beyond the quiet wait', async () => {
  // A restarted controller's lagging cache made its creates fail AlreadyExists ten times; the lag
  // ended by its timer while the key was busy failing, and no source watches the kind it read.
  let retried = false;
  const readyAt = Date.now() + 2600;
  const failedAt = performance.now();
  const backingOff = () =>
    ({ ...idleSession, queue: { depth: 0, processing: 0, omitted: 0, keys: retried ? [] : [{ key: 'default/mongo', state: 'waiting', retries: 10, reason: 'backoff', readyAt }] } }) as unknown as ControllerSession;
  setTimeout(() => (retried = true), 2600);
  const q = new Quietness(subject({ session: backingOff, lastStartOf: () => (retried ? performance.now() : failedAt) }));
  q.released();
  assert.equal(await q.settle(performance.now() + 10_000), true);
  assert.equal(retried, true, 'the run ended before the owed retry');
});

test('a key failing since before any perturbation let go is not waited for beyond the quiet wait', async () => {
  const backingOff = () => ({ ...idleSession, queue: { depth: 0, processing: 0, omitted: 0, keys: [{ key: 'default/broken', state: 'waiting', retries: 10, reason: 'backoff', readyAt: Date.now() + 2600 }] } }) as unknown as ControllerSession;
  const q = new Quietness(subject({ session: backingOff, lastStartOf: () => 0 }));
  const started = performance.now();
  assert.equal(await q.settle(started + 10_000), true);
  assert.ok(performance.now() - started < 2000);
});

test('at its deadline, an idle controller that never caught up says which watch it waited on', async () => {
  const q = new Quietness(subject({ caughtUp: () => false, notCaughtUpBecause: () => 'its watch of configmaps (every namespace) never opened again' }));
  assert.equal(await q.settle(performance.now() + 300), false);
  assert.equal(q.notQuietBecause, 'it was idle, but its watch of configmaps (every namespace) never opened again');
});
