// The simulated cluster under test: `controller-lab sim` from this checkout's build, on a free
// port, its kubeconfig written where the run wants it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { REPO } from './paths.mjs';
import { start, waitFor } from './processes.mjs';

/** mode: 'workloads' (controllers, scheduler, fake Nodes) or 'api-server-only' (no controller manager). */
export async function startSim(dir, mode, log = console.log) {
  const cli = join(REPO, 'dist', 'cli.cjs');
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` first`);
  const kubeconfig = join(dir, 'kubeconfig');
  const logFile = join(dir, 'sim.log');
  const flag = { workloads: '--workloads', 'api-server-only': '--api-server-only' }[mode];
  if (!flag) throw new Error(`unknown sim mode ${mode}: workloads or api-server-only`);
  const child = start(process.execPath, [cli, 'sim', '--port', '0', '--kubeconfig-out', kubeconfig, flag], { log: logFile });
  const server = await waitFor('controller-lab sim', () => {
    const m = /serving on (https:\/\/\S+)/.exec(readFileSync(logFile, 'utf8'));
    return m && existsSync(kubeconfig) ? m[1] : undefined;
  }, { child, timeoutMs: 60_000 });
  log(`controller-lab sim ${flag} on ${server}`);
  const config = parse(readFileSync(kubeconfig, 'utf8'));
  return { kubeconfig, server, token: config.users[0].user.token, caData: config.clusters[0].cluster['certificate-authority-data'] };
}
