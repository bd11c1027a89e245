import { readdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

// kubebuilder's main.go binds its health probes to ":8081", every interface, by default. Run by
// Controller Lab the program needs no probe reachable from other machines (nor two runs fighting
// over one port): unless the user chose an address, the probe listens on a free loopback port.

const PROBE_FLAG = 'health-probe-bind-address';

/** `args`, plus `--health-probe-bind-address=127.0.0.1:0` when the program has that flag and args do not set it. */
export function withLoopbackProbes(packageDir: string, args: readonly string[]): string[] {
  const setByUser = args.some((a) => a === `--${PROBE_FLAG}` || a === `-${PROBE_FLAG}` || a.startsWith(`--${PROBE_FLAG}=`) || a.startsWith(`-${PROBE_FLAG}=`));
  if (setByUser || !definesFlag(packageDir, PROBE_FLAG)) return [...args];
  return [...args, `--${PROBE_FLAG}=127.0.0.1:0`];
}

/** Whether a Go source file of the main package (a directory) names the flag in a string literal. */
function definesFlag(packageDir: string, flag: string): boolean {
  if (!isAbsolute(packageDir)) return false; // a package path: its sources are not at hand
  let names: string[];
  try {
    names = readdirSync(packageDir).filter((n) => n.endsWith('.go') && !n.endsWith('_test.go'));
  } catch {
    return false;
  }
  return names.some((n) => {
    try {
      return readFileSync(join(packageDir, n), 'utf8').includes(`"${flag}"`);
    } catch {
      return false;
    }
  });
}
