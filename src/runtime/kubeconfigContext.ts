import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';

// A controller reads its cluster from a kubeconfig's current-context (a Go program's
// controller-runtime GetConfig has no context variable). To run it against another context, or as
// another user (`as:`, the kubeconfig's form of kubectl --as), it gets a private copy whose
// current-context and user say so. The copy holds credentials: 0600, removed with `dispose`.

export interface KubeconfigChoice {
  /** The context to make current (default: the file's current-context). */
  context?: string;
  /** Impersonate this user: the cluster authorizes the controller's requests as that user's. */
  runAs?: string;
}

interface Kubeconfig {
  contexts?: { name?: string; context?: { user?: string } }[];
  users?: { name?: string; user?: Record<string, unknown> }[];
  'current-context'?: string;
}

export function kubeconfigFor(kubeconfig: string, choice: KubeconfigChoice): { path: string; dispose(): void } {
  const source = kubeconfig.split(':').find(Boolean) ?? join(homedir(), '.kube', 'config');
  const config = parse(readFileSync(source, 'utf8')) as Kubeconfig;
  const contextName = choice.context ?? config['current-context'] ?? '';
  const context = config.contexts?.find((c) => c.name === contextName);
  if (!context) throw new Error(choice.context ? `context "${contextName}" not found in ${source}` : `${source} has no current-context to run as ${choice.runAs}`);
  config['current-context'] = contextName;
  if (choice.runAs) {
    const userName = context.context?.user;
    const entry = config.users?.find((u) => u.name === userName);
    if (!entry) throw new Error(`user "${userName ?? ''}" of context "${contextName}" not found in ${source}`);
    entry.user = { ...entry.user, as: choice.runAs };
  }
  const dir = mkdtempSync(join(tmpdir(), 'controller-lab-kubeconfig-'));
  const path = join(dir, 'config');
  writeFileSync(path, stringify(config), { mode: 0o600 });
  return { path, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
