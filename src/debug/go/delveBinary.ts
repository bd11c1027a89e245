import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

// Where Delve is: `go install github.com/go-delve/delve/cmd/dlv@…` puts it in $GOBIN, or else
// $(go env GOPATH)/bin, which is often not on the PATH of an editor started from a desktop.

/** The Delve version .ci/run installs and the README names. */
export const DELVE_VERSION = 'v1.27.2';
export const DELVE_INSTALL = `go install github.com/go-delve/delve/cmd/dlv@${DELVE_VERSION}`;

export interface FindDelveOptions {
  /** An explicit path (the launch configuration's `dlvPath`): used as it is. */
  explicit?: string;
  env?: NodeJS.ProcessEnv;
  goBinary?: string;
}

/** The dlv to run, or an error telling the user how to install it. */
export function findDelve(options: FindDelveOptions = {}): string {
  if (options.explicit) {
    if (!isExecutable(options.explicit)) throw new Error(`dlvPath ${options.explicit} is not an executable file`);
    return options.explicit;
  }
  const env = options.env ?? process.env;
  const candidates: string[] = [];
  for (const dir of (env.PATH ?? '').split(delimiter)) if (dir) candidates.push(join(dir, 'dlv'));
  for (const dir of goBinDirs(options.goBinary ?? 'go', env)) candidates.push(join(dir, 'dlv'));
  const found = candidates.find(isExecutable);
  if (found) return found;
  throw new Error(`Delve (dlv) was not found on the PATH nor in $(go env GOBIN)/$(go env GOPATH)/bin. Install it with: ${DELVE_INSTALL}`);
}

function goBinDirs(go: string, env: NodeJS.ProcessEnv): string[] {
  try {
    const [gobin = '', gopath = ''] = execFileSync(go, ['env', 'GOBIN', 'GOPATH'], { env, encoding: 'utf8', timeout: 10_000 }).split('\n');
    const dirs = gobin.trim() ? [gobin.trim()] : [];
    for (const p of gopath.trim().split(delimiter)) if (p) dirs.push(join(p, 'bin'));
    return dirs;
  } catch {
    return [];
  }
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
