import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { runCli } from './support/runCli.ts';

// `CHILD_NOTE=… controller-lab check …` ran the controller with CHILD_NOTE, which its code reads:
// the replay command a finding ends with sets it again, and leaves out what any shell has.

const CONTROLLER = fileURLToPath(new URL('../../fixtures/plantedBugWithEnv/controller.ts', import.meta.url));
const SCENARIO = fileURLToPath(new URL('../../fixtures/plantedBug/scenario.yaml', import.meta.url));

test("a finding's replay sets the variables the controller reads as the check was given them", { timeout: 300_000 }, async () => {
  const r = await runCli(['check', CONTROLLER, '--scenario', SCENARIO], { env: { CHILD_NOTE: 'two words', UNREAD_SETTING: 'x' } });
  assert.equal(r.code, 1, `a finding${r.stdout}${r.stderr}`);
  const replays = r.stdout.split('\n').filter((l) => l.startsWith('  replay: '));
  assert.ok(replays.length > 0, r.stdout);
  const program = /^[\w./:@=-]+$/.test(CONTROLLER) ? CONTROLLER : `'${CONTROLLER}'`;
  for (const line of replays) {
    assert.ok(line.startsWith(`  replay: CHILD_NOTE='two words' controller-lab check ${program} `), line);
    assert.doesNotMatch(line, /UNREAD_SETTING|HOME=|PATH=/);
  }
});
