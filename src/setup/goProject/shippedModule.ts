import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Controller Lab's Go module (packages controllerlab and simtest) is not published yet: the product
// ships a copy of it in `go/` beside `dist/` (the npm package, the .vsix), and a checkout has it in
// the repository's `go/`. Either way it is `<package root>/go`, the package root being the nearest
// folder above the running code whose package.json is controller-lab's: src/setup/goProject/ in a
// checkout, dist/*.cjs in a package.

export const MODULE_PATH = 'github.com/controller-lab/controller-lab/go';

export interface ShippedModule {
  /** The module's folder (holding its go.mod). */
  dir: string;
  /** The product's version, which the copy carries: `0.1.0`. */
  version: string;
}

export class ShippedModuleMissing extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShippedModuleMissing';
  }
}

/** The package root above `from` (a file URL or path of the running code). */
function packageRoot(from: string): { root: string; version: string } | undefined {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === 'controller-lab' && typeof pkg.version === 'string') return { root: dir, version: pkg.version };
    } catch {
      // no package.json here (or not ours): keep walking up
    }
    if (dirname(dir) === dir) return undefined;
  }
}

export function findShippedModule(from: string = import.meta.url): ShippedModule {
  const file = from.startsWith('file:') ? fileURLToPath(from) : from;
  const found = packageRoot(file);
  if (!found) throw new ShippedModuleMissing(`Controller Lab's package.json was not found above ${file}: this installation is incomplete`);
  const dir = join(found.root, 'go');
  const goMod = join(dir, 'go.mod');
  if (!existsSync(goMod) || !new RegExp(`^module\\s+${MODULE_PATH.replace(/\./g, '\\.')}\\s*$`, 'm').test(readFileSync(goMod, 'utf8'))) {
    throw new ShippedModuleMissing(`Controller Lab's Go module is not in ${dir}: this installation is incomplete (reinstall it)`);
  }
  return { dir, version: found.version };
}
