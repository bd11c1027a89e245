import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CLI_NODE_FLAGS, CLI_YOUNG_GENERATION_MB } from '../../../scripts/cliBuild.mjs';
import { HOST_HEAP_FLAGS } from '../../../src/runtime/controllerProcess.ts';
import { REPLICASET_SCENARIO, runController, withTempDir } from './support/runController.ts';

// A user's controller runs in a process of its own (the controller host): it holds the informers'
// caches, so it gets the same capped young generation as the controller-lab command itself.

test("the controller host runs a user's controller on node with the command's heap flags", () => {
  assert.deepEqual(HOST_HEAP_FLAGS, [...CLI_NODE_FLAGS]);
  withTempDir((dir) => {
    const source = `import { defineController } from 'controller-lab';
import { getHeapSpaceStatistics } from 'node:v8';
export default defineController({
  name: 'reporter',
  for: { apiVersion: 'apps/v1', kind: 'ReplicaSet' },
  reconcile(req, ctx) {
    if (req.name !== 'web') return;
    // As much short-lived garbage as V8 needs to grow its young generation as far as it may.
    const keep = [];
    for (let i = 0; i < 300000; i++) {
      const o = { text: 'x'.repeat(200) + i, n: [i, i + 1] };
      if (i % 3 === 0) keep.push(o);
      if (keep.length > 50000) keep.length = 0;
    }
    const young = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    ctx.log.info('execArgv=' + process.execArgv.join(' ') + ' young=' + young.space_size / 2 ** 20);
  },
});
`;
    const r = runController(dir, source, ['--sim', '--scenario', REPLICASET_SCENARIO, '--until-idle', '--timeout', '45']);
    assert.equal(r.code, 0, r.stderr);
    const m = /execArgv=(.*) young=([\d.]+)/.exec(r.stdout);
    assert.ok(m, r.stdout);
    for (const flag of CLI_NODE_FLAGS) assert.ok(m[1]!.split(' ').includes(flag), `the host runs with ${flag}: ${m[1]}`);
    // Without the flags this garbage grows it to 64 MB. With them V8 holds it at the two
    // semi-spaces, but not always exactly: runs on a busy machine read 8.25 and 14.5 MB.
    assert.ok(Number(m[2]) < 2 * CLI_YOUNG_GENERATION_MB, `young generation ${m[2]} MB`);
  });
});
