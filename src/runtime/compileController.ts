import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type * as esbuild from 'esbuild';
import { API_MODULE_SOURCE, ControllerLoadError, type ControllerLoader } from '../controllerProtocol/index.ts';
import { notAControllerFile } from './controllerTarget.ts';

// Prepares the user's controller (TS or JS, one file or many) for the controller host. With esbuild
// (a checkout, the CLI from the repo) it is bundled into one ESM file whose source map points back
// at the user's files. Without it (the installed .vsix ships no node_modules) the host loads the
// user's files themselves through Node's loader and type stripping (controllerModuleHooks.ts).
// Either way stack traces and line breakpoints land in the user's code.

export interface CompiledController {
  /** What the host imports: the bundle (`loader: 'bundle'`) or the user's entry file (`'typeStripping'`). */
  moduleFile: string;
  /** The user's entry file, for messages. */
  sourceFile: string;
  loader: ControllerLoader;
  /** Removes the bundle's temporary directory (nothing to remove when loading the user's files). */
  dispose(): Promise<void>;
}

export interface CompileOptions {
  /** `esbuild` requires it; `none` loads the user's files with type stripping. Default: esbuild when installed. */
  bundler?: 'esbuild' | 'none';
}

const controllerLabAlias: esbuild.Plugin = {
  name: 'controller-lab-api',
  setup(build) {
    build.onResolve({ filter: /^controller-lab$/ }, () => ({ path: 'controller-lab', namespace: 'controller-lab-api' }));
    build.onLoad({ filter: /.*/, namespace: 'controller-lab-api' }, () => ({ contents: API_MODULE_SOURCE, loader: 'js' }));
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

export async function compileController(file: string, options: CompileOptions = {}): Promise<CompiledController> {
  const sourceFile = resolve(file);
  const info = await stat(sourceFile).catch(() => undefined);
  if (!info?.isFile()) throw new ControllerLoadError(notAControllerFile(sourceFile) ?? `controller file not found: ${sourceFile}`);
  const bundler = options.bundler === 'none' ? undefined : await loadEsbuild();
  if (!bundler) {
    if (options.bundler === 'esbuild') throw new ControllerLoadError('esbuild is not installed');
    // Syntax and type-stripping errors surface when the host loads each file, as file:line:col.
    return { moduleFile: sourceFile, sourceFile, loader: 'typeStripping', dispose: () => Promise.resolve() };
  }
  const dir = await mkdtemp(join(tmpdir(), 'controller-lab-'));
  const moduleFile = join(dir, basename(sourceFile).replace(/\.[cm]?[jt]s$/, '') + '.mjs');
  try {
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
  return { moduleFile, sourceFile, loader: 'bundle', dispose: () => rm(dir, { recursive: true, force: true }) };
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
