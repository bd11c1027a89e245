import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_NODE_FLAGS, CLI_YOUNG_GENERATION_MB } from '../../../scripts/cliBuild.mjs';
import { bundleCli } from './support/bundleCli.ts';
import { configMap, startScriptedCluster, watchLine } from './support/scriptedCluster.ts';

// dist/cli.cjs run as a program is started by its shebang (npm's `controller-lab`, bin/controller-lab,
// gives the same flags: launcher.test.ts), and that is what gives node the V8 flags: V8 sizes its
// heap before any of our code runs.

// Loaded into the command's process with --require: makes V8 grow the young generation as far as
// it may (short-lived objects, some surviving a while, as an informer's list makes), then reports
// the process's Node flags and young generation size when the command exits.
const REPORTER = `
const v8 = require('node:v8');
const keep = [];
for (let i = 0; i < 300000; i++) {
  const o = { text: 'x'.repeat(200) + i, n: [i, i + 1] };
  if (i % 3 === 0) keep.push(o);
  if (keep.length > 50000) keep.length = 0;
}
keep.length = 0;
process.on('exit', () => {
  const young = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  require('node:fs').writeFileSync(process.env.HEAP_REPORT, JSON.stringify({ execArgv: process.execArgv, youngMb: young.space_size / 2 ** 20 }));
});
`;

test('controller-lab runs node with a capped young generation: its shebang passes the V8 flags, so watch keeps less memory', async (t) => {
  const c = await startScriptedCluster({ items: [configMap('a', '3')], watch: (res) => res.write(watchLine('ADDED', 'b', '11')) });
  t.after(() => c.close());
  const cli = path.join(c.dir, 'cli.cjs');
  await bundleCli(cli);
  chmodSync(cli, 0o755);
  assert.equal(readFileSync(cli, 'utf8').split('\n')[0], `#!/usr/bin/env -S node ${CLI_NODE_FLAGS.join(' ')}`);
  const reporter = path.join(c.dir, 'reporter.cjs');
  writeFileSync(reporter, REPORTER);
  const report = path.join(c.dir, 'heap.json');
  // Run as a user's shell runs it: the file itself, `node` found on PATH (this test's Node first).
  const child = spawn(cli, ['watch', 'cm', '--kubeconfig', c.kubeconfig, '--exit-when-seen', 'default/b'], {
    env: { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`, KUBECONFIG: '', NODE_OPTIONS: `--require ${reporter}`, HEAP_REPORT: report },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 0, out);
  assert.match(out, /ADDED\s+default\s+b\s+11/);
  const { execArgv, youngMb } = JSON.parse(readFileSync(report, 'utf8')) as { execArgv: string[]; youngMb: number };
  for (const flag of CLI_NODE_FLAGS) assert.ok(execArgv.includes(flag), `node runs with ${flag}: ${execArgv.join(' ')}`);
  // Without the cap V8 lets this grow to 64 MB on a large machine.
  assert.ok(youngMb <= CLI_YOUNG_GENERATION_MB, `young generation ${youngMb} MB`);
});
