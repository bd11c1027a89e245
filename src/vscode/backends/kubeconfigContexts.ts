import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { kubeconfigFiles } from '../../kube/index.ts';

// The contexts a kubeconfig offers, for the "Connect to Cluster…" picker. Reads the same files
// kubectl would (explicit path, else $KUBECONFIG, else ~/.kube/config); a missing or unreadable
// file yields no contexts rather than an error — the sim is always offered.

export interface KubeconfigContext {
  name: string;
  cluster: string;
  namespace?: string;
  current: boolean;
  file: string;
}

export function listKubeconfigContexts(kubeconfig?: string, env: NodeJS.ProcessEnv = process.env): { contexts: KubeconfigContext[]; problems: string[] } {
  const contexts: KubeconfigContext[] = [];
  const problems: string[] = [];
  let current: string | undefined;
  const seen = new Set<string>();
  for (const file of kubeconfigFiles(kubeconfig ? { kubeconfig } : {}, env)) {
    if (!existsSync(file)) continue;
    try {
      const doc = parse(readFileSync(file, 'utf8')) as { contexts?: unknown; 'current-context'?: unknown } | null;
      if (!current && typeof doc?.['current-context'] === 'string' && doc['current-context']) current = doc['current-context'];
      for (const entry of Array.isArray(doc?.contexts) ? doc.contexts : []) {
        const name = (entry as { name?: unknown })?.name;
        const ctx = (entry as { context?: { cluster?: unknown; namespace?: unknown } })?.context;
        if (typeof name !== 'string' || seen.has(name)) continue;
        seen.add(name);
        contexts.push({
          name,
          cluster: typeof ctx?.cluster === 'string' ? ctx.cluster : '',
          ...(typeof ctx?.namespace === 'string' ? { namespace: ctx.namespace } : {}),
          current: false,
          file,
        });
      }
    } catch (err) {
      problems.push(`${file}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  for (const c of contexts) c.current = c.name === current;
  return { contexts, problems };
}
