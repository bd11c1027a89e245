import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyDifference, isSame, moduleFiles, shippedModuleFiles, writeCopy } from '../../../../src/setup/goProject/moduleCopy.ts';
import { findShippedModule } from '../../../../src/setup/goProject/shippedModule.ts';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));

function scratch(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'module-copy-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('the shipped module is the checkout\'s go/, at package.json\'s version', () => {
  const version = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string }).version;
  assert.deepEqual(findShippedModule(), { dir: join(repo, 'go'), version });
});

test('a package (dist/*.cjs beside go/) finds its go/ the same way; a package without one says it is incomplete', (t) => {
  const root = scratch(t);
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'controller-lab', version: '9.8.7' }));
  mkdirSync(join(root, 'dist'));
  const bundle = join(root, 'dist', 'cli-init.cjs');
  assert.throws(() => findShippedModule(bundle), /Controller Lab's Go module is not in .*\/go: this installation is incomplete/);
  mkdirSync(join(root, 'go'));
  writeFileSync(join(root, 'go', 'go.mod'), 'module github.com/controller-lab/controller-lab/go\n\ngo 1.26.0\n');
  assert.deepEqual(findShippedModule(bundle), { dir: join(root, 'go'), version: '9.8.7' });
});

test('a copy holds go.mod, go.sum and the non-test sources: no tests, testdata or examples', () => {
  const files = [...moduleFiles(join(repo, 'go')).keys()];
  assert.ok(files.includes('go.mod') && files.includes('go.sum'));
  assert.ok(files.includes('controllerlab/wrap.go') && files.includes('simtest/simtest.go'));
  assert.deepEqual(files.filter((f) => f.endsWith('_test.go') || f.startsWith('examples/') || f.includes('/testdata/')), []);
});

test('directories the go command ignores (`_name`, `.name`) are no part of a copy', (t) => {
  const dir = scratch(t);
  writeFileSync(join(dir, 'go.mod'), 'module example.com/m\n\ngo 1.26.0\n');
  for (const sub of ['lib', '_scratch', '.hidden']) {
    mkdirSync(join(dir, sub));
    writeFileSync(join(dir, sub, 'a.go'), `package ${sub.replace(/^[._]/, '')}\n`);
  }
  assert.deepEqual([...moduleFiles(dir).keys()].sort(), ['go.mod', 'lib/a.go']);
});

test('a refresh makes the copy the shipped module: changed files rewritten, stale ones removed', (t) => {
  const target = join(scratch(t), 'controller-lab', 'go');
  const wanted = moduleFiles(join(repo, 'go'));
  const first = copyDifference(wanted, target);
  assert.equal(first.added.length, wanted.size);
  writeCopy(wanted, target, first);
  assert.ok(isSame(copyDifference(wanted, target)));
  writeFileSync(join(target, 'controllerlab', 'wrap.go'), 'package controllerlab\n');
  mkdirSync(join(target, 'gone'));
  writeFileSync(join(target, 'gone', 'old.go'), 'package gone\n');
  const d = copyDifference(wanted, target);
  assert.deepEqual(d, { added: [], changed: ['controllerlab/wrap.go'], removed: ['gone/old.go'] });
  writeCopy(wanted, target, d);
  assert.ok(isSame(copyDifference(wanted, target)));
  assert.equal(existsSync(join(target, 'gone')), false);
});

/** The direct requirements of a go.mod text: module path → version. */
function directRequires(goMod: string): Map<string, string> {
  const block = /^require \(\n([\s\S]*?)^\)/m.exec(goMod)?.[1] ?? '';
  return new Map(block.split('\n').filter((l) => l.trim() && !l.includes('// indirect')).map((l) => l.trim().split(/\s+/) as [string, string]));
}

test('a copy\'s go.mod is minimum.mod: the lowest versions the module was verified on, so a project on controller-runtime v0.23 keeps it', () => {
  const copy = shippedModuleFiles(join(repo, 'go'));
  const goMod = copy.get('go.mod')!.toString();
  assert.equal(goMod, readFileSync(join(repo, 'go', 'minimum.mod'), 'utf8'));
  assert.equal(copy.get('go.sum')!.toString(), readFileSync(join(repo, 'go', 'minimum.sum'), 'utf8'));
  assert.match(goMod, /^go 1\.25\.0$/m);
  assert.equal(directRequires(goMod).get('sigs.k8s.io/controller-runtime'), 'v0.23.0');
  assert.equal(directRequires(goMod).get('k8s.io/client-go'), 'v0.35.0');
  // What the module imports directly it requires in both files (a dependency added to go.mod only would be missing from copies).
  const developed = readFileSync(join(repo, 'go', 'go.mod'), 'utf8');
  assert.deepEqual([...directRequires(goMod).keys()].sort(), [...directRequires(developed).keys()].sort());
  assert.equal(goMod.split('\n')[0], developed.split('\n')[0]);
});
