import type { BuildOptions } from 'esbuild';

/** esbuild options for the CLI's bundles (see cliBuild.mjs). */
export function cliBuildOptions(o: { root: string; outdir: string; production?: boolean; metafile?: boolean }): BuildOptions;
