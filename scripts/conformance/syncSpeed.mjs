// The sync-speed figure: N ConfigMaps (default 10 000) in one namespace, then the product's
// informer and client-go's (JSON, and protobuf, which ours does not speak) each synced a few times
// in turn, each in a fresh process; the median of each. Only a figure: the machine is shared, so
// it is reported, never asserted.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO } from './paths.mjs';
import { buildClientGoSync } from './clientGoSync.mjs';

const ROUNDS = 5;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const runJson = (command, args) => JSON.parse(execFileSync(command, args, { cwd: REPO, encoding: 'utf8', timeout: 300_000 }).trim());

/** Resolves with the figures as `measures` rows ({test, name, value, unit}). */
export function measureSyncSpeed(kubeconfig, { count = 10_000, log = console.log } = {}) {
  const clientGo = buildClientGoSync(log);
  const ns = `sync-speed-${Date.now().toString(36)}`;
  log(`sync speed: creating ${count} ConfigMaps in ${ns}`);
  execFileSync(process.execPath, [join(REPO, 'scripts', 'conformance', 'seedConfigMaps.ts'), '--kubeconfig', kubeconfig, '--namespace', ns, '--count', String(count)], { stdio: 'inherit' });
  const contenders = {
    'controller-lab informer (JSON)': () => runJson(process.execPath, [join(REPO, 'scripts', 'conformance', 'productSync.ts'), '--kubeconfig', kubeconfig, '--namespace', ns]),
    'client-go v0.28.4 informer (JSON)': () => runJson(clientGo, ['--kubeconfig', kubeconfig, '--namespace', ns]),
    'client-go v0.28.4 informer (protobuf)': () => runJson(clientGo, ['--kubeconfig', kubeconfig, '--namespace', ns, '--protobuf']),
  };
  const times = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, sync] of Object.entries(contenders)) {
      const { items, ms } = sync();
      if (items !== count) throw new Error(`${name} synced ${items} ConfigMaps, not ${count}`);
      times[name].push(ms);
    }
  }
  return Object.entries(times).map(([name, ms]) => {
    log(`sync speed: ${name}: ${ms.join(', ')} ms`);
    return { test: 'sync speed', name: `${name}: ${count} ConfigMaps to synced, median of ${ROUNDS}`, value: Math.round(median(ms)), unit: 'ms' };
  });
}
