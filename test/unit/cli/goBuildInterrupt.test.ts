import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { scratchDir } from '../kube/support/loopbackApi.ts';
import { startCli } from './support/runCli.ts';

// Ctrl+C (or a plain `kill -INT`) while `go build` runs ends the run at once, says so, and takes
// the build with it: a first build of controller-runtime takes minutes, and waiting it out, or
// leaving it compiling in the background, is what a user who pressed Ctrl+C did not ask for.

/** A `go` that builds forever: it starts a child (as go starts compile) and sleeps. */
const HANGING_GO = `#!/bin/sh
sleep 300 &
echo $! > "$CHILD_PID_FILE"
wait
`;

/** Running: a killed child whose parent is gone may stay a zombie until init reaps it. */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

test('SIGINT during go build stops the build and its children within seconds and says so', async (t) => {
  const { dir, cleanup } = scratchDir();
  t.after(cleanup);
  const bin = path.join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(path.join(bin, 'go'), HANGING_GO);
  chmodSync(path.join(bin, 'go'), 0o755);
  const program = path.join(dir, 'program');
  mkdirSync(program);
  writeFileSync(path.join(program, 'go.mod'), 'module example.com/program\n\ngo 1.22\n');
  writeFileSync(path.join(program, 'main.go'), 'package main\n\nfunc main() {}\n');
  const childPidFile = path.join(dir, 'child.pid');

  const cli = startCli(['run', program, '--sim'], { env: { PATH: `${bin}:${process.env.PATH ?? ''}`, CHILD_PID_FILE: childPidFile } });
  const stop = setTimeout(() => cli.child.kill('SIGKILL'), 60_000);
  await cli.waitForStdout('building');
  while (!existsSync(childPidFile) || readFileSync(childPidFile, 'utf8').trim() === '') await new Promise((r) => setTimeout(r, 50));
  const buildChild = Number(readFileSync(childPidFile, 'utf8'));
  t.after(() => { if (alive(buildChild)) process.kill(buildChild, 'SIGKILL'); });

  const interrupted = performance.now();
  cli.child.kill('SIGINT');
  const r = await cli.done;
  clearTimeout(stop);
  const tookMs = performance.now() - interrupted;
  assert.ok(tookMs < 5000, `exited ${Math.round(tookMs)} ms after SIGINT`);
  assert.equal(r.code, 130, r.stderr);
  assert.match(r.stderr, /^controller-lab run: stopped \(SIGINT\) while go build ran\n$/);
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(alive(buildChild), false, 'the build\'s own children end with it');
});
