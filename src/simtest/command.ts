import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The `controller-lab` command of the package this module belongs to: the bundle's (dist/) or,
// run from source, the checkout's. Tests then start the sim and the runner of the same version as
// the library they import, whatever `controller-lab` is on the PATH.

export function packageCommand(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const bin = join(dir, 'bin/controller-lab');
    if (existsSync(bin) && existsSync(join(dir, 'package.json'))) return bin;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`controller-lab/simtest: no bin/controller-lab above ${fileURLToPath(import.meta.url)}; reinstall the controller-lab package`);
    dir = parent;
  }
}
