// What `controller-lab watch` loads at start is paid by every run: node:child_process (and the
// node:dgram it brings) only when the kubeconfig's user runs an exec credential plugin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startCli, repoRoot } from './support/runCli.ts';
import { configMap, startScriptedCluster } from './support/scriptedCluster.ts';

test('a watch with a token kubeconfig never loads node:child_process', async (t) => {
  const c = await startScriptedCluster({ items: [configMap('a', '5')] });
  t.after(() => c.close());
  const loadedFile = path.join(c.dir, 'loaded-builtins.txt');
  const preload = path.join(repoRoot, 'test/unit/cli/support/loadedBuiltins.mjs');
  const cli = startCli(['watch', 'configmaps', '--kubeconfig', c.kubeconfig, '--exit-when-seen', 'default/a'], {
    env: { NODE_OPTIONS: `--import ${preload}`, LOADED_BUILTINS_FILE: loadedFile },
  });
  const r = await cli.done;
  assert.equal(r.code, 0, r.stderr);
  const loaded = readFileSync(loadedFile, 'utf8').trim().split('\n');
  assert.ok(loaded.includes('http'), loaded.join(' '));
  assert.ok(!loaded.includes('child_process'), 'node:child_process loaded at start');
});
