import { readFileSync, statSync } from 'node:fs';
import * as nodeModule from 'node:module';
import type { LoadHookSync, RegisterHooksOptions, ResolveHookSync } from 'node:module';
import { fileURLToPath } from 'node:url';
import { API_MODULE_URL, ControllerLoadError } from '../controllerProtocol/index.ts';
import { stripTypes } from './typeStripping.ts';

// Without esbuild the controller host imports the user's own files with Node's ESM loader, taught
// three things a bundler would do: `controller-lab` is the host's API, relative imports are written
// the TypeScript way ("./reconcile", "./util.js" for util.ts), and .ts files have their types erased.
//
// module.registerHooks (Node >= 22.15; VS Code's Electron and the CLI's Node 22.19+ have it) rather
// than module.register: its hooks run synchronously in this thread, so they are plain functions
// bundled into dist/controllerHost.cjs like any other code. module.register would run them on a
// loader thread from a separate module file (a data: URL or an extra .mjs to ship), and Node 24
// deprecates it in favour of registerHooks.

/** Code the user wrote, as opposed to packages they installed (which resolve and load as Node does). */
function isUserFile(url: string | undefined): url is string {
  return url !== undefined && url.startsWith('file:') && !/[\\/]node_modules[\\/]/.test(fileURLToPath(url));
}

const isRelative = (specifier: string) => /^\.{1,2}(\/|$)/.test(specifier);

function isFile(url: URL): boolean {
  return statSync(url, { throwIfNoEntry: false })?.isFile() ?? false;
}

/** The files a TypeScript import may mean, in the order TypeScript's bundler/NodeNext resolution tries them. */
export function importCandidates(target: URL): URL[] {
  const at = (suffix: string) => new URL(target.pathname.replace(/\/$/, '') + suffix + target.search, target);
  const path = target.pathname;
  if (/\.[cm]?ts$/.test(path)) return [target];
  // "./util.js" names the file util.ts compiles to.
  const js = /\.([cm]?)js$/.exec(path);
  if (js) return [target, new URL(path.slice(0, -js[0].length) + `.${js[1] ?? ''}ts` + target.search, target)];
  if (/\.(json|node|wasm)$/.test(path)) return [target];
  return [target, at('.ts'), at('.mts'), at('.js'), at('.mjs'), at('/index.ts'), at('/index.js')];
}

const resolve: ResolveHookSync = (specifier, context, nextResolve) => {
  if (specifier === 'controller-lab') return { url: API_MODULE_URL, shortCircuit: true };
  const parent = context.parentURL;
  if (!isRelative(specifier) || !isUserFile(parent)) return nextResolve(specifier, context);
  const candidates = importCandidates(new URL(specifier, parent));
  const found = candidates.find(isFile);
  if (!found) throw missingImport(specifier, parent, candidates);
  return { url: found.href, shortCircuit: true };
};

/** `file:line:col: error: cannot find './x' (looked for …)`, pointing at the import statement. */
function missingImport(specifier: string, parentUrl: string, candidates: URL[]): ControllerLoadError {
  const parent = fileURLToPath(parentUrl);
  let at = '';
  try {
    const source = readFileSync(parent, 'utf8');
    const index = source.search(new RegExp(`(['"])${specifier.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\1`));
    if (index >= 0) {
      const before = source.slice(0, index).split('\n');
      at = `:${before.length}:${(before.at(-1)?.length ?? 0) + 1}`;
    }
  } catch {
    // The location is a convenience; the message stands without it.
  }
  const base = new URL('.', parentUrl).pathname;
  const tried = candidates.map((c) => decodeURIComponent(c.pathname.startsWith(base) ? './' + c.pathname.slice(base.length) : c.pathname));
  return new ControllerLoadError(`${parent}${at}: error: cannot find '${specifier}' (looked for ${tried.join(', ')})`);
}

const load: LoadHookSync = (url, context, nextLoad) => {
  if (!isUserFile(url)) return nextLoad(url, context);
  const file = fileURLToPath(url);
  if (file.endsWith('.cts')) throw new ControllerLoadError(`${file}: error: .cts (CommonJS TypeScript) cannot be loaded without esbuild; use .ts or .mts (ES modules)`);
  if (!/\.m?ts$/.test(file)) return nextLoad(url, context);
  return { format: 'module', source: stripTypes(readFileSync(file, 'utf8'), file), shortCircuit: true };
};

let registered = false;

/** Installs the hooks for every module loaded from now on (once per process). */
export function registerControllerModuleHooks(): void {
  if (registered) return;
  const registerHooks = (nodeModule as { registerHooks?: (hooks: RegisterHooksOptions) => unknown }).registerHooks;
  if (!registerHooks) throw new ControllerLoadError(`loading a controller without esbuild needs Node >= 22.15 (module.registerHooks); this is Node ${process.versions.node}`);
  registerHooks({ resolve, load });
  registered = true;
}
