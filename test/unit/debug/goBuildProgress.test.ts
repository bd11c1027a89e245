import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { ControllerSession, BUILD_PROGRESS_EVERY_MS } from '../../../src/runtime/index.ts';
import { createSimCluster } from '../../../src/sim/index.ts';
import { ReconcileRuntime } from '../../../src/debug/reconcileRuntime.ts';

// Debugging a Go program whose build takes minutes (the first one with Delve's flags): the Debug
// Console says it is still building, as `controller-lab run` does, instead of one line and then
// nothing for ten minutes. `go` here is a stand-in that builds until the test lets it fail.

test('while a Go program builds, the Debug Console says every 20 s that it is still building', { timeout: 60_000 }, async (t) => {
  const work = mkdtempSync(join(tmpdir(), 'cl-slow-build-'));
  const savedPath = process.env.PATH;
  t.after(() => {
    process.env.PATH = savedPath;
    rmSync(work, { recursive: true, force: true });
  });
  const bin = join(work, 'bin');
  mkdirSync(bin);
  const release = join(work, 'release');
  writeFileSync(join(bin, 'go'), `#!/bin/sh\nwhile [ ! -e '${release}' ]; do sleep 0.05; done\necho 'main.go:1:1: the stand-in build fails' >&2\nexit 1\n`);
  chmodSync(join(bin, 'go'), 0o755);
  process.env.PATH = [bin, savedPath].join(delimiter);
  const program = join(work, 'program');
  mkdirSync(program);
  writeFileSync(join(program, 'go.mod'), 'module example.com/program\n\ngo 1.25\n');
  writeFileSync(join(program, 'main.go'), 'package main\n\nfunc main() {}\n');

  const cluster = createSimCluster();
  const runtime = new ReconcileRuntime({
    startSession: (o) => new ControllerSession(o),
    startCluster: async () => ({ kubeconfig: '(in process)', stop: () => cluster.close() }),
  });
  t.after(() => runtime.shutdown());
  const console: string[] = [];
  runtime.on('output', (o) => console.push(o.text));
  t.mock.timers.enable({ apis: ['setInterval'] });
  const launched = runtime.launch({ program, cwd: program, cluster: 'sim' });
  launched.catch(() => {});
  for (let i = 0; i < 200 && !console.some((l) => l.startsWith('Building ')); i++) await new Promise((r) => setImmediate(r));
  assert.ok(console.some((l) => l.startsWith('Building ')), console.join(''));
  t.mock.timers.tick(2 * BUILD_PROGRESS_EVERY_MS);
  assert.equal(console.filter((l) => /^ {2}still building \(\d+ s; a first build of controller-runtime takes minutes/.test(l)).length, 2, console.join(''));

  writeFileSync(release, '');
  await assert.rejects(launched, /the stand-in build fails/);
});
