// Bundles every entry point with esbuild. `--production` minifies and drops source maps (the .vsix
// build); the default keeps source maps for development. `--watch` rebuilds on change.
import * as esbuild from 'esbuild';
import { chmodSync, existsSync, globSync, rmSync, writeFileSync } from 'node:fs';
import { cliBuildOptions } from './cliBuild.mjs';
import { CONTROLLER_TYPES_PATH, generateControllerTypes } from './controllerTypes.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

// The `controller-lab` module's types that users' editors see come from the runtime's API.
writeFileSync(CONTROLLER_TYPES_PATH, generateControllerTypes());

// Sources are ES modules (they also run unbundled on Node 24); the Node bundles are CommonJS, so
// `import.meta.url` is rebuilt from `__filename`.
const cjsShim = {
  banner: { js: "const __importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  define: { 'import.meta.url': '__importMetaUrl' },
};

const node = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  external: ['vscode'],
  // jsonc-parser's `main` is a UMD wrapper whose requires esbuild cannot follow; its ES build bundles.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  ...cjsShim,
};

/** @type {esbuild.BuildOptions[]} */
const builds = [
  { ...node, entryPoints: { extension: 'src/extension.ts' }, outdir: 'dist', outExtension: { '.js': '.cjs' } },
  { ...node, entryPoints: { debugAdapter: 'src/debug/debugAdapterMain.ts' }, outdir: 'dist', outExtension: { '.js': '.cjs' } },
  { ...node, entryPoints: { controllerHost: 'src/host/controllerHostMain.ts' }, outdir: 'dist', outExtension: { '.js': '.cjs' } },
  // `controller-lab/simtest`, which a user's tests import (package.json "exports").
  { ...node, entryPoints: { simtest: 'src/simtest/index.ts' }, outdir: 'dist', outExtension: { '.js': '.cjs' } },
  // The worker thread the simulated cluster evaluates CRD validation rules in (src/sim/crdSchema/cel/ruleSandbox.ts).
  { ...node, entryPoints: { celWorker: 'src/sim/crdSchema/cel/celWorkerMain.ts' }, outdir: 'dist', outExtension: { '.js': '.cjs' } },
  cliBuildOptions({ root: '.', outdir: 'dist', production }),
  {
    bundle: true,
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
    sourcemap: !production,
    minify: production,
    logLevel: 'warning',
    entryPoints: { timeline: 'webview/timeline/main.ts' },
    outdir: 'dist/webview',
    tsconfig: 'webview/tsconfig.json',
  },
];

// The integration suite runs inside a VS Code extension host, which loads CommonJS.
if (!production) {
  const suite = globSync('test/integration/**/*.ts');
  if (suite.length > 0) {
    builds.push({
      ...node,
      entryPoints: suite,
      outbase: 'test/integration',
      outdir: 'out/test/suite',
      outExtension: { '.js': '.cjs' },
      external: ['vscode', 'mocha'],
    });
  }
}

rmSync('dist', { recursive: true, force: true });
for (const b of builds) {
  for (const entry of Object.values(b.entryPoints)) {
    if (!existsSync(entry)) throw new Error(`build entry missing: ${entry}`);
  }
}
// package.json's `bin`: npx (and an npm-linked install) execute the file itself.
const makeCliExecutable = () => chmodSync('dist/cli.cjs', 0o755);
if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.rebuild()));
  makeCliExecutable();
  for (const c of contexts) await c.watch();
  console.log('watching for changes…');
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
  makeCliExecutable();
  console.log(`built ${builds.length} bundles (${production ? 'production' : 'development'})`);
}
