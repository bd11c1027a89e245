import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';

// A Go program reads its cluster from KUBECONFIG's current-context (controller-runtime's GetConfig
// has no context variable): to run it against another context, it gets a copy of the kubeconfig
// whose current-context is that one. The copy holds credentials: 0600, removed with `dispose`.

export function kubeconfigWithContext(kubeconfig: string, context: string): { path: string; dispose(): void } {
  const source = kubeconfig.split(':').find(Boolean) ?? join(homedir(), '.kube', 'config');
  const config = parse(readFileSync(source, 'utf8')) as { contexts?: { name?: string }[]; 'current-context'?: string };
  if (!config.contexts?.some((c) => c.name === context)) throw new Error(`context "${context}" not found in ${source}`);
  config['current-context'] = context;
  const dir = mkdtempSync(join(tmpdir(), 'controller-lab-kubeconfig-'));
  const path = join(dir, 'config');
  writeFileSync(path, stringify(config), { mode: 0o600 });
  return { path, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
