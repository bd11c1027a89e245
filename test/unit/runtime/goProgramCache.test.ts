import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GoControllerProcess } from '../../../src/runtime/goControllerProcess.ts';
import { cachedProgramPath } from '../../../src/runtime/goProgramCache.ts';

// A second `controller-lab run` (or debug session) of an unchanged Go program links nothing: the
// program is built where the last run left it, and go build leaves a current file alone.

test('a second build of an unchanged Go program reuses the first one\'s file: go build links nothing', { timeout: 120_000 }, async (t) => {
  const work = mkdtempSync(join(tmpdir(), 'cl-go-cache-'));
  const savedCache = process.env.XDG_CACHE_HOME;
  process.env.XDG_CACHE_HOME = join(work, 'cache');
  t.after(() => {
    if (savedCache === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = savedCache;
    rmSync(work, { recursive: true, force: true });
  });
  mkdirSync(join(work, 'cache'));
  const program = join(work, 'program');
  mkdirSync(program);
  writeFileSync(join(program, 'go.mod'), 'module example.com/program\n\ngo 1.25\n');
  writeFileSync(join(program, 'main.go'), 'package main\n\nfunc main() {}\n');

  const built = async () => {
    const process = new GoControllerProcess();
    const failure = await process.build({ packageDir: program });
    assert.equal(failure, undefined);
    const binary = cachedProgramPath({ packageDir: program });
    assert.ok(binary);
    // A link writes a new file and renames it over the old one: a new inode. (An up-to-date one
    // only gets its modification time touched.)
    const { ino } = statSync(binary);
    process.dispose();
    return { binary, ino };
  };
  const first = await built();
  assert.ok(first.binary.startsWith(join(work, 'cache', 'controller-lab', 'go-programs')));
  const second = await built();
  assert.deepEqual(second, first, 'the second build wrote the program again');

  // Other flags are another program (the debugger's -N -l build does not replace this one).
  assert.notEqual(cachedProgramPath({ packageDir: program, buildFlags: ['-gcflags=all=-N -l'] }), first.binary);
});

test('without a home to cache in, the program is built in a temporary folder as before', (t) => {
  const work = mkdtempSync(join(tmpdir(), 'cl-go-cache-'));
  t.after(() => rmSync(work, { recursive: true, force: true }));
  const notAFolder = join(work, 'home');
  writeFileSync(notAFolder, '');
  assert.equal(cachedProgramPath({ packageDir: '.' }, { HOME: notAFolder }), undefined);
});
