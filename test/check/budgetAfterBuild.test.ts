// `--budget` bounds the runs, not the build: a Go program whose build took longer than the budget
// (a cold cache on a loaded machine: a kubebuilder project's first build took 12 minutes) had
// every perturbation left out, and the check exited 0 having run nothing but its reference runs.
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { it } from 'node:test';
import { check, transcript } from './checkCli.ts';

const BUDGET_S = 12;

it('a build slower than the budget leaves the perturbed runs their budget', async () => {
  // A `go` whose builds take longer than the whole budget; everything else is the real one.
  const realGo = execFileSync('go', ['env', 'GOROOT'], { encoding: 'utf8' }).trim() + '/bin/go';
  const dir = mkdtempSync(join(tmpdir(), 'controller-lab-slow-go-'));
  writeFileSync(join(dir, 'go'), `#!/bin/sh\nif [ "$1" = build ]; then sleep ${BUDGET_S + 1}; fi\nexec '${realGo}' "$@"\n`);
  chmodSync(join(dir, 'go'), 0o755);
  const path = process.env.PATH;
  process.env.PATH = `${dir}${delimiter}${path ?? ''}`;
  try {
    const r = await check('./test/check/go/orphaner/correct', 'test/check/scenarios/orphaner.yaml', ['--budget', `${BUDGET_S}s`]);
    assert.ok(r.runs > 2, `perturbed runs ran after the build (${r.runs} runs, ${r.skipped} of ${r.planned} left out)${transcript(r)}`);
  } finally {
    process.env.PATH = path;
    rmSync(dir, { recursive: true, force: true });
  }
});
