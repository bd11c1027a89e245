import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { cliBuildOptions } from '../../../scripts/cliBuild.mjs';
import { bundleCli } from './support/bundleCli.ts';

// Each subcommand of src/cli/main.ts's table is a bundle of its own (scripts/cliBuild.mjs,
// SUBCOMMANDS), so a start compiles only the entry and the subcommand it runs. One missing there
// must not slip, with everything it imports, into the entry bundle: the build refuses it.

test("every module main.ts loads on demand is a subcommand's own bundle, but for --version", async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'controller-lab-cli-bundles-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const metafile = await bundleCli(path.join(dir, 'cli.cjs'));
  const main = Object.entries(metafile.inputs).find(([file]) => file.endsWith('src/cli/main.ts'))?.[1];
  assert.ok(main);
  const onDemand = main.imports.filter((i) => i.kind === 'dynamic-import');
  assert.deepEqual(onDemand.filter((i) => !i.external).map((i) => path.basename(i.path)), ['version.ts']);
  const bundles = onDemand.filter((i) => i.external).map((i) => i.path);
  assert.ok(bundles.includes('./cli-watch.cjs'), JSON.stringify(bundles));
  for (const bundle of bundles) {
    assert.match(bundle, /^\.\/cli-[a-z]+\.cjs$/);
    assert.ok(Object.keys(metafile.outputs).some((file) => file.endsWith(bundle.slice(2))), `${bundle} is built`);
  }
});

test('a subcommand added to main.ts without a bundle fails the build, saying where to add it', async (t) => {
  const root = mkdtempSync(path.join(tmpdir(), 'controller-lab-cli-unbundled-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(path.join(root, 'src/cli'), { recursive: true });
  writeFileSync(path.join(root, 'src/cli/newSubcommand.ts'), 'export async function main(): Promise<number> { return 0; }\n');
  writeFileSync(
    path.join(root, 'src/cli/main.ts'),
    "const subcommands = { watch: () => import('./watch.ts'), newSubcommand: () => import('./newSubcommand.ts') };\nvoid subcommands;\n",
  );
  const options = cliBuildOptions({ root, outdir: path.join(root, 'dist') });
  await assert.rejects(
    build({ ...options, entryPoints: { cli: path.join(root, 'src/cli/main.ts') }, logLevel: 'silent', write: false }),
    /main\.ts loads \.\/newSubcommand\.ts on demand, but it has no bundle of its own: add it to SUBCOMMANDS in scripts\/cliBuild\.mjs/,
  );
});
