import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { cliBuildOptions } from '../../../../scripts/cliBuild.mjs';
import { repoRoot } from './runCli.ts';

/**
 * Bundles the CLI the way scripts/build.mjs makes dist/ (cli.cjs, and a bundle per subcommand
 * beside it) into the folder of `outfile`, which must be named cli.cjs: tests build their own copy
 * so they never race another test for dist/.
 */
export async function bundleCli(outfile: string): Promise<Metafile> {
  if (path.basename(outfile) !== 'cli.cjs') throw new Error(`the CLI's entry bundle is cli.cjs, not ${path.basename(outfile)}`);
  const { metafile } = await build({ ...cliBuildOptions({ root: repoRoot, outdir: path.dirname(outfile), metafile: true }), sourcemap: false });
  return metafile!;
}
