import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundleCli } from './support/bundleCli.ts';
import { repoRoot, runCli } from './support/runCli.ts';

const { version } = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };

test("--version prints package.json's version and the Node it runs on, exit 0", async () => {
  const r = await runCli(['--version']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, `controller-lab ${version} (node ${process.version})\n`);
});

test('the bundled CLI (dist/cli.cjs) reads the package.json one folder up', async () => {
  // The shipped layout, in a scratch folder with a package.json of its own.
  const root = mkdtempSync(path.join(tmpdir(), 'controller-lab-version-'));
  const outfile = path.join(root, 'dist', 'cli.cjs');
  await bundleCli(outfile);
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'controller-lab', version: '9.8.7' }));
  const r = await runCli(['version'], { entry: outfile });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^controller-lab 9\.8\.7 \(node v\d+/);
});
