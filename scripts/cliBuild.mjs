// How the controller-lab command is bundled: dist/cli.cjs, the entry (argument dispatch only), and
// one bundle per subcommand beside it (dist/cli-watch.cjs, …), required when that subcommand runs.
// One bundle for everything made every start compile the simulator too: `watch` spent ~50 ms of
// CPU parsing 1.2 MB of code it never runs. Used by scripts/build.mjs, the tests and benchmarks.
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * V8 flags the controller-lab command runs with: its entry bundle's shebang passes them to node
 * (`#!/usr/bin/env -S node …`), since V8 sizes its heap before any of our code runs. V8 lets the
 * young generation grow with the machine's memory (64 MB on a 24 GB machine); an informer's or the
 * simulator's garbage fills it and the process keeps those pages. Capped at 2 × 4 MB, an informer
 * over 50k ConfigMaps peaks at ~156 MB (~168 MB at 2 × 8 MB, ~280 MB uncapped) at the same CPU per
 * event, and the simulated cluster answers a LIST storm as fast (`npm run bench:informer`, which
 * runs our informer with these flags too; `npm run bench:storm`).
 */
const SEMI_SPACE_MB = 4;
export const CLI_NODE_FLAGS = [`--max-semi-space-size=${SEMI_SPACE_MB}`];

/** The young generation those flags allow, in MB: two semi-spaces. */
export const CLI_YOUNG_GENERATION_MB = 2 * SEMI_SPACE_MB;

/** Subcommand modules of src/cli/main.ts and the bundle each one becomes. */
const SUBCOMMANDS = { './watch.ts': 'cli-watch', './sim.ts': 'cli-sim', './run.ts': 'cli-run', './init.ts': 'cli-init', './check.ts': 'cli-check' };

/** What main.ts loads on demand that stays in the entry bundle: small, and not a subcommand (`--version`). */
const ENTRY_MODULES = ['./version.ts'];

const isCliMain = (file) => path.basename(file) === 'main.ts' && path.basename(path.dirname(file)) === 'cli';

/**
 * main.ts's `import('./watch.ts')` becomes a require of the subcommand's own bundle. Any other
 * module main.ts loads on demand fails the build: a subcommand added to main.ts's table but not to
 * SUBCOMMANDS would otherwise land, with all it imports, in the entry bundle every start compiles.
 */
const subcommandBundles = {
  name: 'cli-subcommands',
  setup(build) {
    build.onResolve({ filter: /^\.\/[^/]+\.ts$/ }, (args) => {
      if (args.kind !== 'dynamic-import' || !isCliMain(args.importer)) return undefined;
      const bundle = SUBCOMMANDS[args.path];
      if (bundle) return { path: `./${bundle}.cjs`, external: true };
      if (ENTRY_MODULES.includes(args.path)) return undefined;
      return { errors: [{ text: `src/cli/main.ts loads ${args.path} on demand, but it has no bundle of its own: add it to SUBCOMMANDS in scripts/cliBuild.mjs (or, if it is no subcommand, to ENTRY_MODULES)` }] };
    });
  },
};

/**
 * The YAML library is a bundle of its own (dist/cli-yaml.cjs), required by src/kube/yamlParser.ts
 * the first time a kubeconfig is not JSON: inside the watch bundle, every start compiled its
 * 112 KB (3–9 ms of CPU). Bundles that import it for themselves (sim, run, check) keep their own
 * copy too.
 */
const YAML_BUNDLE = 'cli-yaml';

const isYamlParser = (file) => path.basename(file) === 'yamlParser.ts' && path.basename(path.dirname(file)) === 'kube';

const yamlBundle = {
  name: 'cli-yaml',
  setup(build) {
    build.onResolve({ filter: /^yaml$/ }, (args) => (args.kind === 'require-call' && isYamlParser(args.importer) ? { path: `./${YAML_BUNDLE}.cjs`, external: true } : undefined));
  },
};

/**
 * esbuild options for the CLI's bundles in `outdir` (`root`: the repository). CommonJS, with
 * `import.meta.url` rebuilt from `__filename` (sources are ES modules that also run unbundled).
 * @param {{ root: string; outdir: string; production?: boolean; metafile?: boolean }} o
 * @returns {import('esbuild').BuildOptions}
 */
export function cliBuildOptions({ root, outdir, production = false, metafile = false }) {
  const entryPoints = { cli: path.join(root, 'src/cli/main.ts') };
  for (const [source, name] of Object.entries(SUBCOMMANDS)) entryPoints[name] = path.join(root, 'src/cli', source);
  entryPoints[YAML_BUNDLE] = createRequire(import.meta.url).resolve('yaml');
  return {
    entryPoints,
    outdir,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    external: ['vscode'],
    sourcemap: !production,
    minify: production,
    metafile,
    logLevel: 'warning',
    plugins: [subcommandBundles, yamlBundle],
    banner: { js: `#!/usr/bin/env -S node ${CLI_NODE_FLAGS.join(' ')}\nconst __importMetaUrl = require('node:url').pathToFileURL(__filename).href;` },
    define: { 'import.meta.url': '__importMetaUrl' },
  };
}
