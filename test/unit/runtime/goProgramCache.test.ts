import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
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

test('the cache keeps the programs used most recently: an old one goes past 16 programs or 2 GiB, a recent or foreign one stays', (t) => {
  const work = mkdtempSync(join(tmpdir(), 'cl-go-cache-'));
  t.after(() => rmSync(work, { recursive: true, force: true }));
  const env = { XDG_CACHE_HOME: work };
  const root = join(work, 'controller-lab', 'go-programs');
  mkdirSync(root, { recursive: true });
  const hourAgo = (hours: number) => new Date(Date.now() - hours * 3600_000);
  /** A program built `hours` ago of `bytes` bytes (sparse: no disk used). */
  const program = (name: string, hours: number, bytes = 1024) => {
    mkdirSync(join(root, name));
    writeFileSync(join(root, name, 'controller'), '');
    truncateSync(join(root, name, 'controller'), bytes);
    utimesSync(join(root, name), hourAgo(hours), hourAgo(hours));
  };
  const names = Array.from({ length: 30 }, (_, i) => i.toString(16).padStart(20, '0'));
  names.forEach((n, i) => program(n, i + 1));
  mkdirSync(join(root, 'notes-of-mine'));

  const binary = cachedProgramPath({ packageDir: '/nowhere/program' }, env);
  assert.ok(binary);
  const left = () => readdirSync(root).sort();
  const own = basename(dirname(binary));
  // This program and the 15 used most recently before it; what the user put there is not ours.
  assert.deepEqual(left(), [...names.slice(0, 15), own, 'notes-of-mine'].sort());

  // Past 2 GiB the oldest go too, however few they are; the one just used stays, even alone.
  rmSync(root, { recursive: true });
  mkdirSync(root, { recursive: true });
  program('a'.repeat(20), 1, 900 * 1024 ** 2);
  program('b'.repeat(20), 2, 900 * 1024 ** 2);
  program('c'.repeat(20), 3, 900 * 1024 ** 2);
  cachedProgramPath({ packageDir: '/nowhere/program' }, env);
  assert.deepEqual(left(), ['a'.repeat(20), 'b'.repeat(20), own].sort());

  // Ones used in the last minutes may be other runs' builds under way: they stay past the limits.
  rmSync(root, { recursive: true });
  mkdirSync(root, { recursive: true });
  names.slice(0, 20).forEach((n, i) => program(n, i / 600));
  cachedProgramPath({ packageDir: '/nowhere/program' }, env);
  assert.deepEqual(left(), [...names.slice(0, 20), own].sort());
});

test('an XDG_CACHE_HOME that does not exist yet is made, as Go makes its own cache there: the program is still kept', (t) => {
  const work = mkdtempSync(join(tmpdir(), 'cl-go-cache-'));
  t.after(() => rmSync(work, { recursive: true, force: true }));
  const binary = cachedProgramPath({ packageDir: '/nowhere/program' }, { XDG_CACHE_HOME: join(work, 'not', 'yet') });
  assert.ok(binary?.startsWith(join(work, 'not', 'yet', 'controller-lab', 'go-programs')), binary);
});
