import type { BuildOptions } from 'esbuild';

/** esbuild options for the CLI's bundles (see cliBuild.mjs). */
export function cliBuildOptions(o: { root: string; outdir: string; production?: boolean; metafile?: boolean }): BuildOptions;

/** V8 flags the controller-lab command's shebang gives node (see cliBuild.mjs). */
export const CLI_NODE_FLAGS: readonly string[];

/** The young generation CLI_NODE_FLAGS allow, in MB. */
export const CLI_YOUNG_GENERATION_MB: number;
