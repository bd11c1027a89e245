import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCli } from './support/runCli.ts';

// `controller-lab check` stopped by Ctrl-C: minutes of runs are not thrown away. The runs under
// way finish, what they found is reported, and the exit code says it was cut short (130).

test('SIGINT during a check reports the runs made so far and exits 130', async (t) => {
  const cli = startCli(['check', 'examples/replicaset-controller/controller.ts', '--scenario', 'examples/replicaset-controller/scenario.yaml']);
  const stop = setTimeout(() => cli.child.kill('SIGKILL'), 120_000);
  t.after(() => clearTimeout(stop));
  await cli.waitForStdout('perturbed run(s) planned');
  cli.child.kill('SIGINT');
  const r = await cli.done;
  assert.equal(r.code, 130, r.stderr);
  assert.match(r.stdout, /^check: 0 finding\(s\) in \d+ runs, .*planned perturbation\(s\) left out when it was cancelled$/m);
  assert.match(r.stderr, /controller-lab check: stopped by SIGINT after \d+ run\(s\): the report above is partial\n$/);
});
