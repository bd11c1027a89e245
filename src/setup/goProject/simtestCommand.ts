import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Project } from './project.ts';

// simtest starts the simulated cluster by running `controller-lab sim`, found through
// $CONTROLLER_LAB or the PATH (or a Controller Lab checkout above the test). Someone with the VS Code
// extension alone has neither: `make test` would say so only when it runs.

function onPath(name: string, env: NodeJS.ProcessEnv): boolean {
  return (env.PATH ?? '').split(delimiter).filter(Boolean).some((dir) => {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

export function checkSimtestCommand(project: Project, env: NodeJS.ProcessEnv): void {
  if (env.CONTROLLER_LAB?.trim() || onPath('controller-lab', env)) return;
  project.manual('PATH', 'controller-lab is not on it, and the test suites (simtest) run `controller-lab sim`: npm install -g controller-lab, or set CONTROLLER_LAB to the command (CONTROLLER_LAB="npx controller-lab")');
}
