import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type * as esbuild from 'esbuild';

// Compiles the user's controller (TS or JS) into one ESM file the controller host imports. The
// `controller-lab` import becomes a module that reads the host's API from a global, so the user's
// `TerminalError` is the very class the host checks with instanceof. Source maps point back at the
// user's file, so stack traces and line breakpoints land in their code.

export class ControllerLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ControllerLoadError';
  }
}

export interface CompiledController {
  moduleFile: string;
  sourceFile: string;
  dispose(): Promise<void>;
}

const API_MODULE = `const api = globalThis[Symbol.for('controller-lab.api')];
if (!api) throw new Error('controller-lab: this module runs only inside the Controller Lab controller host');
export const defineController = api.defineController;
export const TerminalError = api.TerminalError;
export default api;`;

const controllerLabAlias: esbuild.Plugin = {
  name: 'controller-lab-api',
  setup(build) {
    build.onResolve({ filter: /^controller-lab$/ }, () => ({ path: 'controller-lab', namespace: 'controller-lab-api' }));
    build.onLoad({ filter: /.*/, namespace: 'controller-lab-api' }, () => ({ contents: API_MODULE, loader: 'js' }));
  },
};

// esbuild's JS API finds its native binary relative to its own package, so it must never be bundled
// into our dist files: load it at run time under a name the bundler cannot follow.
const ESBUILD = 'esbuild';
async function loadEsbuild(): Promise<typeof esbuild | undefined> {
  try {
    const mod = (await import(ESBUILD)) as typeof esbuild & { default?: typeof esbuild };
    return mod.default ?? mod;
  } catch {
    return undefined;
  }
}

/**
 * Without esbuild (an installation that lacks it): Node's own type stripping for a single-file
 * controller. Relative imports cannot be followed this way, so they are reported, not guessed.
 */
export async function stripSingleFile(sourceFile: string, moduleFile: string): Promise<void> {
  const { stripTypeScriptTypes } = (await import('node:module')) as { stripTypeScriptTypes?: (code: string, options?: { mode?: string; sourceUrl?: string }) => string };
  const source = await readFile(sourceFile, 'utf8');
  const relative = /\bfrom\s+['"](\.{1,2}\/[^'"]+)['"]/.exec(source);
  if (relative) throw new Error(`${sourceFile}: imports ${relative[1]}, which needs esbuild (not installed); keep the controller in one file or install esbuild`);
  let js = source;
  if (/\.[cm]?ts$/.test(sourceFile)) {
    if (!stripTypeScriptTypes) throw new Error('compiling TypeScript needs esbuild or Node >= 22.13 (type stripping)');
    try {
      js = stripTypeScriptTypes(source, { mode: 'strip', sourceUrl: pathToFileURL(sourceFile).href });
    } catch (err) {
      throw new Error(`${sourceFile}: ${(err as Error).message}`, { cause: err });
    }
  }
  const api = `data:text/javascript,${encodeURIComponent(API_MODULE)}`;
  await writeFile(moduleFile, js.replace(/(\bfrom\s+)['"]controller-lab['"]/g, `$1${JSON.stringify(api)}`));
}

export async function compileController(file: string): Promise<CompiledController> {
  const sourceFile = resolve(file);
  const info = await stat(sourceFile).catch(() => undefined);
  if (!info?.isFile()) throw new ControllerLoadError(`controller file not found: ${sourceFile}`);
  const dir = await mkdtemp(join(tmpdir(), 'controller-lab-'));
  const moduleFile = join(dir, basename(sourceFile).replace(/\.[cm]?[jt]s$/, '') + '.mjs');
  try {
    const bundler = await loadEsbuild();
    if (!bundler) {
      await stripSingleFile(sourceFile, moduleFile);
      return { moduleFile, sourceFile, dispose: () => rm(dir, { recursive: true, force: true }) };
    }
    await bundler.build({
      entryPoints: [sourceFile],
      outfile: moduleFile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      sourcemap: 'inline',
      sourcesContent: true,
      logLevel: 'silent',
      plugins: [controllerLabAlias],
      // Bundled packages that use require() still find it in the ESM output.
      banner: { js: "import { createRequire as __clCreateRequire } from 'node:module'; const require = __clCreateRequire(import.meta.url);" },
    });
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw new ControllerLoadError(formatEsbuildFailure(err));
  }
  return { moduleFile, sourceFile, dispose: () => rm(dir, { recursive: true, force: true }) };
}

/** `file:line:col: error: text` per message, as compilers print them (VS Code links them). */
export function formatEsbuildFailure(err: unknown): string {
  const errors = (err as { errors?: esbuild.Message[] }).errors;
  if (!errors?.length) return (err as Error).message ?? String(err);
  return errors
    .map((m) => {
      const loc = m.location ? `${resolve(m.location.file)}:${m.location.line}:${m.location.column + 1}: ` : '';
      return `${loc}error: ${m.text}`;
    })
    .join('\n');
}
