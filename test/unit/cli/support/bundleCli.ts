import { build, type Metafile } from 'esbuild';
import { cliSource } from './runCli.ts';

/**
 * Bundles the CLI the way scripts/build.mjs makes dist/cli.cjs (CJS, `import.meta.url` rebuilt from
 * `__filename`), into `outfile`: tests build their own copy so they never race another test for dist/.
 */
export async function bundleCli(outfile: string): Promise<Metafile> {
  const { metafile } = await build({
    metafile: true,
    entryPoints: [cliSource],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    logLevel: 'warning',
    banner: { js: "#!/usr/bin/env node\nconst __importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    define: { 'import.meta.url': '__importMetaUrl' },
  });
  return metafile;
}
