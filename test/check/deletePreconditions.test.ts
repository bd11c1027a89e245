// A TypeScript controller that deletes only the object it read (a uid precondition, as
// client-go's DeleteOptions.Preconditions): the reaper, which deletes a parent's volume when the
// parent is deleted. Without the precondition, a restart against a view of the old parent
// terminating (time travel) deletes the volume of the parent made again under its name; with it,
// the API server refuses (409) and nothing is lost. The buggy one is checked with the plan that
// finds it (the Go reaper's full check covers the rest); the correct one with every plan.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { check, transcript } from './checkCli.ts';

const SCENARIO = 'test/check/scenarios/reaper.yaml';
const TIME_TRAVEL = JSON.stringify({
  kind: 'stale-restart-after-write',
  write: { verb: 'update', kind: 'ConfigMap', namespace: 'default', name: 'zk', occurrence: 2 },
  lagMs: 1500,
  viewAfter: { kind: 'ConfigMap', namespace: 'default', name: 'zk', occurrence: 2 },
});

it('TypeScript reaper deleting by name: restarted against a view of the old parent terminating, it deletes the new parent\'s volume (stale-state)', async () => {
  const r = await check('test/check/ts/reaper/buggy.ts', SCENARIO, ['--plan', TIME_TRAVEL]);
  assert.equal(r.code, 1, transcript(r));
  assert.deepEqual(r.findings.map((f) => f.class), ['stale-state'], transcript(r));
  assert.match(r.findings[0]!.summary, /missing \(ConfigMap default\/zk-data\)/, transcript(r));
});

it('TypeScript reaper deleting with a uid precondition: no finding, every plan run', async () => {
  const r = await check('test/check/ts/reaper/correct.ts', SCENARIO);
  assert.equal(r.findings.length, 0, `${r.findings.map((f) => f.summary).join('\n')}${transcript(r)}`);
  assert.equal(r.code, 0, transcript(r));
  assert.equal(r.skipped, 0, transcript(r));
});
